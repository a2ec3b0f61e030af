import { Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { type DomainEvent, domainEventName } from '@svc/nest';
import { DataSource } from 'typeorm';
import { opsAppModule } from '../apps/ops/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

interface Received {
  name: string;
  event: DomainEvent;
}

describe('domainEventName', () => {
  it.each([
    ['LoanItem', 'created', 'loanItem.created'],
    ['Task', 'updated', 'task.updated'],
    ['BookCopy', 'deleted', 'bookCopy.deleted'],
    ['Loan', 'recovered', 'loan.recovered'],
  ] as const)('%s %s → %s', (entity, action, name) => {
    expect(domainEventName(entity, action)).toBe(name);
  });
});

describe.each(DATABASE_KINDS)('domain events (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  let emitter: EventEmitter2;
  const received: Received[] = [];
  const record = (name: string | string[], event: DomainEvent) => received.push({ name: String(name), event });

  beforeAll(async () => {
    running = await startApp(kind, (env) => opsAppModule(env));
    http = httpClient(running.app);
    emitter = running.app.get(EventEmitter2);
    emitter.onAny(record as (name: string | string[], ...values: unknown[]) => void);
  });
  afterAll(() => running?.close());
  beforeEach(() => {
    received.length = 0;
  });

  const names = () => received.map((r) => r.name);
  let nextCode = 0;
  const code = () => `C-${kind}-${++nextCode}`;

  it('emits <entity>.created with the record as answered, the caller and the time', async () => {
    const before = Date.now();
    const res = await http().post('/loan-items').set('X-Test-User', 'u-1').send({ code: code(), label: 'Drill', price: 12.5 }).expect(201);
    expect(names()).toEqual(['loanItem.created']);
    const { event } = received[0];
    expect(event).toEqual({
      entity: 'LoanItem',
      action: 'created',
      id: res.body.id,
      record: { ...res.body, created_at: expect.any(Date), updated_at: expect.any(Date) },
      auth: expect.objectContaining({ userId: 'u-1', via: 'jwt' }),
      occurredAt: expect.any(Date),
    });
    expect(event.record.price).toBe('12.50');
    expect(event.previous).toBeUndefined();
    expect(event.occurredAt.getTime()).toBeGreaterThanOrEqual(before);
    expect((event.record.created_at as Date).toISOString()).toBe(res.body.created_at);
  });

  it('carries auth null for an anonymous caller', async () => {
    await http().post('/loan-items').send({ code: code(), label: 'Saw' }).expect(201);
    expect(received[0].event.auth).toBeNull();
  });

  it('emits one created event per record of a bulk create, in the order of the answer', async () => {
    const bulk = [code(), code(), code()].map((c, i) => ({ code: c, label: `Bulk ${i}` }));
    const res = await http().post('/loan-items/bulk').send({ bulk }).expect(201);
    expect(names()).toEqual(['loanItem.created', 'loanItem.created', 'loanItem.created']);
    expect(received.map((r) => r.event.id)).toEqual(res.body.map((row: { id: number }) => row.id));
    expect(received.map((r) => r.event.record.label)).toEqual(['Bulk 0', 'Bulk 1', 'Bulk 2']);
  });

  it('emits updated with the previous row for PATCH and PUT, deleted and recovered, in order', async () => {
    const created = await http().post('/loan-items').send({ code: code(), label: 'Ladder', copies: 3, price: '9.99' }).expect(201);
    const id = created.body.id as number;
    const patched = await http().patch(`/loan-items/${id}`).send({ label: 'Long ladder' }).expect(200);
    await http().put(`/loan-items/${id}`).send({ code: created.body.code, label: 'Step ladder' }).expect(200);
    await http().delete(`/loan-items/${id}`).expect(204);
    await http().patch(`/loan-items/${id}/recover`).expect(200);

    expect(names()).toEqual(['loanItem.created', 'loanItem.updated', 'loanItem.updated', 'loanItem.deleted', 'loanItem.recovered']);
    const [, patch, put, deleted, recovered] = received.map((r) => r.event);
    expect(patch).toMatchObject({
      id,
      record: { label: 'Long ladder', copies: 3 },
      previous: { label: 'Ladder', copies: 3, price: '9.99' },
    });
    expect(patch.record.updated_at).toEqual(new Date(patched.body.updated_at));
    // PUT merges: omitted fields keep their values, and previous is the row PATCH left.
    expect(put).toMatchObject({
      record: { label: 'Step ladder', copies: 3, price: '9.99' },
      previous: { label: 'Long ladder', copies: 3, price: '9.99' },
    });
    expect(deleted.record.deleted_at).toEqual(expect.any(Date));
    expect(deleted.previous).toMatchObject({ label: 'Step ladder', deleted_at: null });
    expect(recovered.record.deleted_at).toBeNull();
    expect(recovered.previous!.deleted_at).toEqual(deleted.record.deleted_at);
    for (const event of [patch, put, deleted, recovered]) expect(event.previous!.id).toBe(id);
  });

  it('answers the ETag of the row a tracked write wrote, and emits nothing for a write If-Match stopped', async () => {
    const created = await http().post('/loan-items').send({ code: code(), label: 'Rope' }).expect(201);
    const id = created.body.id as number;
    const etag = (await http().get(`/loan-items/${id}`).expect(200)).headers.etag;
    expect(etag).toBe(created.headers.etag);
    const patched = await http().patch(`/loan-items/${id}`).set('If-Match', etag).send({ label: 'Long rope' }).expect(200);
    expect(patched.headers.etag).not.toBe(etag);
    expect((await http().get(`/loan-items/${id}`).expect(200)).headers.etag).toBe(patched.headers.etag);
    await http().patch(`/loan-items/${id}`).set('If-Match', etag).send({ label: 'Lost' }).expect(412);
    await http().delete(`/loan-items/${id}`).set('If-Match', etag).expect(412);
    expect(names()).toEqual(['loanItem.created', 'loanItem.updated']);
    const deleted = await http().delete(`/loan-items/${id}`).set('If-Match', patched.headers.etag).expect(204);
    expect(deleted.headers.etag).toBeUndefined();
    const recovered = await http().patch(`/loan-items/${id}/recover`).expect(200);
    expect(recovered.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await http().get(`/loan-items/${id}`).expect(200)).headers.etag).toBe(recovered.headers.etag);
  });

  it('emits nothing for a write that fails: unique conflict, failing bulk, unknown id, invalid body', async () => {
    const taken = code();
    await http().post('/loan-items').send({ code: taken, label: 'First' }).expect(201);
    const other = await http().post('/loan-items').send({ code: code(), label: 'Other' }).expect(201);
    received.length = 0;

    await http().post('/loan-items').send({ code: taken, label: 'Duplicate' }).expect(409);
    await http()
      .post('/loan-items/bulk')
      .send({
        bulk: [
          { code: code(), label: 'Fine' },
          { code: taken, label: 'Duplicate' },
        ],
      })
      .expect(409);
    await http().patch(`/loan-items/${other.body.id}`).send({ code: taken }).expect(409);
    await http().put(`/loan-items/${other.body.id}`).send({ code: taken, label: 'x' }).expect(409);
    await http().patch('/loan-items/999999').send({ label: 'Nobody' }).expect(404);
    await http().delete('/loan-items/999999').expect(404);
    await http().patch(`/loan-items/${other.body.id}/recover`).expect(404);
    await http()
      .post('/loan-items')
      .send({ label: 'No code' })
      .expect((res) => expect([400, 422]).toContain(res.status));
    expect(received).toEqual([]);

    // The failing bulk inserted nothing: its first item is not there either.
    const list = await http().get('/loan-items?filter=label||$eq||Fine').expect(200);
    expect(list.headers['x-total-count']).toBe('0');
  });

  it('emits nothing for an entity without events', async () => {
    const note = await http().post('/notes').send({ text: 'quiet' }).expect(201);
    await http().patch(`/notes/${note.body.id}`).send({ text: 'still quiet' }).expect(200);
    await http().delete(`/notes/${note.body.id}`).expect(204);
    expect(received).toEqual([]);
  });

  it('delivers after the commit: a listener reading through the pool sees the row', async () => {
    const dataSource = running.app.get(DataSource);
    const seen: unknown[] = [];
    const listener = async (event: DomainEvent) => {
      seen.push(await dataSource.query('SELECT label FROM loan_items WHERE id = $1', [event.id]));
    };
    emitter.on('loanItem.created', listener);
    try {
      await http().post('/loan-items').send({ code: code(), label: 'Committed' }).expect(201);
      await waitFor(() => seen.length === 1);
      expect(seen).toEqual([[{ label: 'Committed' }]]);
    } finally {
      emitter.off('loanItem.created', listener);
    }
  });

  it('supports wildcard listeners (loanItem.*)', async () => {
    const actions: string[] = [];
    const listener = (event: DomainEvent) => actions.push(event.action);
    emitter.on('loanItem.*', listener);
    try {
      const created = await http().post('/loan-items').send({ code: code(), label: 'Wild' }).expect(201);
      await http().delete(`/loan-items/${created.body.id}`).expect(204);
      expect(actions).toEqual(['created', 'deleted']);
    } finally {
      emitter.off('loanItem.*', listener);
    }
  });

  it('gives listeners a copy: changing it does not change the answer', async () => {
    const listener = (event: DomainEvent) => {
      event.record.label = 'tampered';
    };
    emitter.on('loanItem.created', listener);
    try {
      const res = await http().post('/loan-items').send({ code: code(), label: 'Original' }).expect(201);
      expect(res.body.label).toBe('Original');
    } finally {
      emitter.off('loanItem.created', listener);
    }
  });

  it('logs a failing listener and still answers the committed write', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const throwing = () => {
      throw new Error('listener broke');
    };
    const rejecting = async () => {
      throw new Error('async listener broke');
    };
    emitter.on('loanItem.created', throwing);
    emitter.on('loanItem.created', rejecting);
    try {
      const res = await http().post('/loan-items').send({ code: code(), label: 'Survives' }).expect(201);
      await http().get(`/loan-items/${res.body.id}`).expect(200);
      await waitFor(() => errors.mock.calls.length > 0);
      expect(errors.mock.calls.map((call) => String(call[0])).join('\n')).toMatch(/A listener of "loanItem\.created" failed: .*broke/);
    } finally {
      emitter.off('loanItem.created', throwing);
      emitter.off('loanItem.created', rejecting);
      errors.mockRestore();
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
