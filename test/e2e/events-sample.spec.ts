import request from 'supertest';
import { DATABASE_KINDS } from '../support/databases';
import { type RunningSample, startSample } from '../support/sample-app';

describe.each(DATABASE_KINDS)('sample/01-lending-library: loan.created listener (%s)', (kind) => {
  let sample: RunningSample;

  beforeAll(async () => {
    sample = await startSample(kind);
  });
  afterAll(() => sample?.close());

  it('writes an AuditEvent for each committed loan, and none for a refused one', async () => {
    const http = () => request(sample.app.getHttpServer());
    const branch = await http().post('/branches').send({ name: 'Events', city: 'Nantes' }).expect(201);
    const member = await http()
      .post('/members')
      .set(sample.bearer('staff-desk', ['staff']))
      .send({ fullName: 'Grace Hopper', email: 'grace@example.com' })
      .expect(201);
    const copy = await http()
      .post('/book-copies')
      .send({ title: 'Solaris', author: 'Stanisław Lem', branchId: branch.body.id })
      .expect(201);
    const loan = await http()
      .post('/loans')
      .send({ dueAt: '2026-12-24T00:00:00Z', memberId: member.body.id, bookCopyId: copy.body.id })
      .expect(201);
    // Refused by the foreign key: no loan, so no event and no audit row.
    await http().post('/loans').send({ dueAt: '2026-12-24T00:00:00Z', memberId: member.body.id, bookCopyId: 999999 }).expect(422);
    await http().patch(`/loans/${loan.body.id}`).send({ renewals: 1 }).expect(200);

    const audits = await eventually(async () => {
      const recent = await http().get('/audit-events/recent').expect(200);
      return recent.body.length > 0 ? recent.body : null;
    });
    expect(audits).toEqual([
      expect.objectContaining({
        action: 'loan.created',
        details: { loanId: loan.body.id, memberId: member.body.id, bookCopyId: copy.body.id, by: null },
      }),
    ]);
  });
});

async function eventually<T>(probe: () => Promise<T | null>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('not observed in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
