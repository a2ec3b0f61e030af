import { parseSvcrc } from '../../../lib/schema/parse-svcrc';
import type { ServiceModel } from '../../../lib/schema/model';
import { findEntity } from './emit-context';
import { emitSmokeApp, emitSmokeSpec } from './smoke.emitter';

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

  const TUTORIAL = {
    auth: { userEntity: 'User', organizationField: 'organizationId', adminRoles: ['owner'], globalGuards: true },
    entities: [
      { name: 'Organization', fields: [{ name: 'name', type: 'text', unique: true }] },
      {
        name: 'User',
        fields: [
          { name: 'email', type: 'text', unique: true, is_email: true },
          { name: 'password', type: 'text' },
        ],
      },
      { name: 'Project', fields: [{ name: 'name', type: 'text' }], scopeBy: 'organizationId' },
    ],
    relationships: [
      { from: 'Project', to: 'Organization', type: 'ManyToOne' },
      { from: 'User', to: 'Organization', type: 'ManyToOne', nullable: false },
    ],
  };

  it('signs the token of a user it creates for the organization it created, never for a fixed id', () => {
    const app = model(TUTORIAL);
    const spec = emitSmokeSpec(app, findEntity(app, 'User'), { importExtension: '' });
    const lines = spec.split('\n').map((line) => line.trim());
    const organization = lines.indexOf("const organization = await client.create('/organizations', { name: client.text('name') });");
    expect(organization).toBeGreaterThan(0);
    expect(lines[organization + 1]).toBe('client.authorize({ organizationId: organization.id });');
    expect(lines[organization + 2]).toBe("const created = await client.create('/users', {");
    expect(spec).toContain('organizationId: organization.id,');
    expect(spec).toContain('client.authorize({ organizationId: organization.id, sub: created.id });');
    // The organization's own create needs an organization context, not a particular one: said so where it is signed.
    expect(lines[organization - 1]).toBe('client.authorize({ organizationId: 1 });');
    expect(lines[organization - 2]).toMatch(/^\/\/ Any organizationId will do/);
  });

  it('skips, saying why, identities only an administrator creates when auth.adminRoles is empty', () => {
    const app = model({ ...TUTORIAL, auth: { ...TUTORIAL.auth, adminRoles: [] } });
    expect(emitSmokeSpec(app, findEntity(app, 'User'), { importExtension: '' })).toContain(
      "const REASON = 'cannot create a User: POST /users is for administrators (auth.adminRoles), and this .svcrc names no admin role';",
    );
    expect(emitSmokeSpec(app, findEntity(app, 'Project'), { importExtension: '' })).toContain(
      'cannot create a Project: it needs an Organization first, and POST /organizations is for administrators',
    );
  });

  it("scopes by another row's id (scopeBy team.id) with the id of the row it created", () => {
    const app = model({
      entities: [
        { name: 'Team', fields: [{ name: 'name', type: 'text' }] },
        { name: 'Invoice', fields: [{ name: 'total', type: 'decimal', precision: 10, scale: 2 }], scopeBy: 'team.id' },
      ],
      relationships: [{ from: 'Invoice', to: 'Team', type: 'ManyToOne', nullable: false }],
      auth: {},
    });
    const spec = emitSmokeSpec(app, findEntity(app, 'Invoice'), { importExtension: '' });
    expect(spec).toContain(
      "const team = await client.create('/teams', { name: client.text('name') });\n    client.authorize({ organizationId: team.id });",
    );
    // No field to change: the update step is skipped, and the runner prints why.
    expect(spec).toContain("it('creates, lists, reads, updates and deletes an Invoice', async (t) => {");
    expect(spec).toContain(
      "t.diagnostic('skipped PATCH /invoices/:id: Invoice has no text, integer, boolean or enum field the smoke test may change');",
    );
  });
});

describe('emitSmokeApp', () => {
  it("hands the schema, the generated module, the team's modules and the smoke headers to smokeApp() of @svc/nest/testing, in a few lines", () => {
    expect(emitSmokeApp({ importExtension: '', platform: 'express' })).toBe(
      [
        "import { smokeApp } from '@svc/nest/testing';",
        "import { ExtensionsModule } from '../../extensions/extensions.module';",
        "import { smokeHeaders } from '../../extensions/smoke-setup';",
        "import { AutogenModule } from '../autogen.module';",
        "import { svcSchema } from '../svc.schema';",
        '',
        '/** The app under test, on an in-memory PGlite database, and clients whose tokens it signs itself. */',
        'export const { smokeClient, stopSmokeApp } = smokeApp({',
        '  schema: svcSchema,',
        '  imports: [AutogenModule, ExtensionsModule],',
        '  headers: smokeHeaders,',
        '});',
        '',
      ].join('\n'),
    );
  });

  it("starts a Fastify app on the adapter its main.ts creates, with the project's import extension", () => {
    const app = emitSmokeApp({ importExtension: '.js', platform: 'fastify' });
    expect(app).toContain("import { FastifyAdapter } from '@nestjs/platform-fastify';\nimport { svcFastifyOptions } from '@svc/nest';\n");
    expect(app).toContain("import { svcSchema } from '../svc.schema.js';");
    expect(app).toContain('  httpAdapter: () => new FastifyAdapter(svcFastifyOptions()),\n});\n');
    expect(app.split('\n').length).toBeLessThan(20);
  });
});
