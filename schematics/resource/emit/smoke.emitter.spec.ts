import { parseSvcrc } from '../../../lib/schema/parse-svcrc';
import type { ServiceModel } from '../../../lib/schema/model';
import { findEntity } from './emit-context';
import { emitSmokeSpec } from './smoke.emitter';

function model(svcrc: object): ServiceModel {
  const result = parseSvcrc(JSON.stringify({ version: 2, language: 'typescript', rootFolder: 'src', ...svcrc }));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.model;
}

const LIBRARY = {
  entities: [
    { name: 'Member', fields: [{ name: 'fullName', type: 'text' }] },
    {
      name: 'Loan',
      fields: [
        { name: 'dueAt', type: 'timestamptz' },
        { name: 'note', type: 'text', nullable: true },
      ],
    },
  ],
  relationships: [{ from: 'Loan', to: 'Member', type: 'ManyToOne', nullable: false }],
};

describe('emitSmokeSpec', () => {
  it('creates the required parent first, then runs every route of the resource', () => {
    const library = model(LIBRARY);
    const spec = emitSmokeSpec(library, findEntity(library, 'Loan'), { importExtension: '' });
    expect(spec).toContain("const member = await client.create('/members', { fullName: client.text('fullName') });");
    expect(spec).toContain("const created = await client.create('/loans', { dueAt: '2026-01-02T03:04:05.000Z', memberId: member.id });");
    for (const step of ['client.expectListed', 'client.get', 'client.update', 'client.remove', 'client.expectGone'])
      expect(spec).toContain(step);
    expect(spec).toContain("const changes = { note: client.text('note') };");
  });

  it('skips, saying why, a resource whose required parent cannot be created, and imports nothing unused', () => {
    const library = model({ ...LIBRARY, entities: [{ ...LIBRARY.entities[0], routes: { create: false } }, LIBRARY.entities[1]] });
    const spec = emitSmokeSpec(library, findEntity(library, 'Loan'), { importExtension: '' });
    expect(spec).toContain("const REASON = 'cannot create a Loan: it needs a Member first, and POST /members is turned off';");
    expect(spec).toContain("it('creates, lists, reads, updates and deletes a Loan', { skip: REASON }, () => {});");
    expect(spec).toContain("import { stopSmokeApp } from './smoke-app';");
    expect(spec).not.toContain('assert');
  });

  it('leaves out the routes an entity turns off', () => {
    const library = model({ ...LIBRARY, entities: [LIBRARY.entities[0], { ...LIBRARY.entities[1], routes: { delete: false } }] });
    const spec = emitSmokeSpec(library, findEntity(library, 'Loan'), { importExtension: '.js' });
    expect(spec).not.toContain('client.remove');
    expect(spec).toContain("from './smoke-app.js';");
  });
});
