/**
 * The generated end-to-end smoke tests, under `<autogen>/e2e/`: one `<route>.e2e-spec.ts` per
 * resource with routes (list, create, get, update and delete over HTTP), `smoke-app.ts` (the app on
 * an in-memory PGlite database, a fetch client, and on apps with `auth` a token signed with the
 * test's own secret), and `smoke.e2e-spec.ts`, which runs them all in one process: the app
 * starts once. They run on Node's own test runner (`node --test`), so the app needs no test
 * framework and no transform of the ECMAScript-only Nest packages.
 */
import type { EntityModel, ServiceModel } from '../../../lib/schema/model';
import { type Doc, group, hardline, indent, join, line, print } from '../../utils/doc';
import { arrayDoc, call, objectDoc, str } from '../../utils/ts-docs';
import type { EmitOptions } from './emit-context';
import { article, type CreationStep, type SmokeSetup, smokeSetup, updatedField } from './smoke-fixtures';

/** The HTTP platform the smoke app runs on: the app's own. */
export type SmokePlatform = 'express' | 'fastify';

export interface SmokeOptions extends EmitOptions {
  readonly platform: SmokePlatform;
}

/** \`<sourceRoot>/extensions/smoke-setup.ts\`, the team's settings of the smoke tests: created once, never changed. */
export const SMOKE_SETUP_FILE = 'smoke-setup.ts';

export function emitSmokeSetupScaffold(): string {
  return `/**
 * Settings of the generated smoke tests (src/autogen/e2e/, run by \`npm test\`). They call your
 * controllers, so your guards and hooks apply to them: give them here what your guards require.
 * This file is yours: \`svc generate\` created it once and never changes it.
 */

/** Headers every smoke-test request sends (besides the token of apps with "auth"). */
export const smokeHeaders: Record<string, string> = {};
`;
}

/** Entities whose smoke test is generated: those with at least one generated route. */
export function smokeEntities(model: ServiceModel): EntityModel[] {
  return model.entities.filter((entity) => entity.http && entity.routes.length > 0);
}

export function smokeSpecName(entity: EntityModel): string {
  return `${entity.route}.e2e-spec`;
}

/** Runs every smoke spec in one process (one app, one database). */
export function emitSmokeIndex(model: ServiceModel, options: EmitOptions): string {
  const imports = smokeEntities(model).map((entity) => `import './${smokeSpecName(entity)}${options.importExtension}';`);
  return [
    '// Every smoke test, in one process: `npm test` runs this file (node --test).',
    ...(imports.length === 0 ? ['export {};'] : imports),
    '',
  ].join('\n');
}

const PLATFORM_IMPORTS: Readonly<Record<SmokePlatform, string[]>> = {
  express: [],
  fastify: ["import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';"],
};

const CREATE_APP: Readonly<Record<SmokePlatform, string>> = {
  express: "await NestFactory.create(SmokeAppModule, { logger: ['error', 'warn'] })",
  fastify:
    "await NestFactory.create<NestFastifyApplication>(SmokeAppModule, new FastifyAdapter(svcFastifyOptions()), {\n    logger: ['error', 'warn'],\n  })",
};

/**
 * Without \`auth.globalGuards\`, the app authenticates only where the team put the guards; the
 * smoke app puts them on every route, so that its token reaches the scoped and identity rules.
 */
function needsGlobalGuards(model: ServiceModel): boolean {
  return model.auth !== null && !model.auth.globalGuards;
}

function moduleDecl(model: ServiceModel): string {
  // The team's modules register the controllers under test; AutogenModule the guards of .svcrc.
  const imports = ['SvcModule.forRoot({ schema: svcSchema, env: { ...process.env, ...SMOKE_ENV } })', 'AutogenModule', 'ExtensionsModule'];
  if (needsGlobalGuards(model)) imports.push('SvcGuardsModule.forRoot({ global: true })');
  return print(['@Module(', objectDoc([['imports', arrayDoc(imports)]], true), ')']);
}

export function emitSmokeApp(model: ServiceModel, options: SmokeOptions): string {
  const auth = model.auth !== null;
  const guards = needsGlobalGuards(model);
  const svcImports = [
    'configureSvcApp',
    'SvcModule',
    ...(guards ? ['SvcGuardsModule'] : []),
    ...(options.platform === 'fastify' ? ['svcFastifyOptions'] : []),
  ].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  const ext = options.importExtension;
  return `import assert from 'node:assert/strict';
${auth ? "import { createHmac } from 'node:crypto';\n" : ''}import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
${PLATFORM_IMPORTS[options.platform].map((line) => `${line}\n`).join('')}import { ${svcImports.join(', ')} } from '@svc/nest';
import { ExtensionsModule } from '../../extensions/extensions.module${ext}';
import { smokeHeaders } from '../../extensions/smoke-setup${ext}';
import { AutogenModule } from '../autogen.module${ext}';
import { svcSchema } from '../svc.schema${ext}';

/** Signs the smoke tests' tokens; the app under test trusts it, and no other app does. */
const SMOKE_JWT_SECRET = 'smoke-tests-only-secret-0123456789abcdef0123456789abcdef';
${auth ? `\n/** Roles of every token: the first of \`auth.adminRoles\`, which creating identities needs. */\nconst SMOKE_ROLES: string[] = ${JSON.stringify(model.auth?.adminRoles.slice(0, 1) ?? []).replace(/"/g, "'")};\n` : ''}
/** The app under test: an in-memory PGlite database whose tables follow the entities. */
const SMOKE_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  DATABASE_TYPE: 'pglite',
  PGLITE_DATA_DIR: 'memory',
  DATABASE_SYNC: 'true',
  JWT_SECRET: SMOKE_JWT_SECRET,
};

${moduleDecl(model)}
class SmokeAppModule {}

export type Row = Record<string, unknown>;

export interface SmokeResponse {
  readonly status: number;
  readonly body: unknown;
}

/** Unique values across the whole run, so that unique columns never collide. */
let sequence = 0;

/** A client of the app under test that checks each answer${auth ? ' and sends a token' : ''}. */
export class SmokeClient {${auth ? '\n  private token = signToken({});\n' : ''}
  constructor(private readonly baseUrl: string) {}
${
  auth
    ? `
  /** From now on, sends a token with these claims (over its \`sub\`, \`exp\` and \`roles\`). */
  authorize(claims: Record<string, unknown>): void {
    this.token = signToken(claims);
  }
`
    : ''
}
  text(label: string): string {
    return \`smoke \${label} \${++sequence}\`;
  }

  integer(): number {
    return ++sequence;
  }

  email(): string {
    return \`smoke-\${++sequence}@example.com\`;
  }

  async request(method: string, path: string, body?: unknown): Promise<SmokeResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...smokeHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';${auth ? '\n    headers.authorization = `Bearer ${this.token}`;' : ''}
    const response = await fetch(\`\${this.baseUrl}\${path}\`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  }

  async create(path: string, body: Row): Promise<Row> {
    return asRow(expectStatus(await this.request('POST', path, body), [201], \`POST \${path}\`));
  }

  async expectListed(path: string, id: unknown): Promise<void> {
    const answer = expectStatus(await this.request('GET', \`\${path}?filter=id||$eq||\${String(id)}\`), [200], \`GET \${path}\`);
    const rows = Array.isArray(answer) ? answer : asRow(answer).data;
    assert.ok(Array.isArray(rows), \`GET \${path}: no list in \${JSON.stringify(answer)}\`);
    assert.deepEqual(
      rows.map((row) => asRow(row).id),
      [id],
    );
  }

  async get(path: string, id: unknown): Promise<Row> {
    return asRow(expectStatus(await this.request('GET', \`\${path}/\${String(id)}\`), [200], \`GET \${path}/:id\`));
  }

  async update(path: string, id: unknown, body: Row): Promise<Row> {
    return asRow(expectStatus(await this.request('PATCH', \`\${path}/\${String(id)}\`, body), [200], \`PATCH \${path}/:id\`));
  }

  async remove(path: string, id: unknown): Promise<void> {
    expectStatus(await this.request('DELETE', \`\${path}/\${String(id)}\`), [200, 204], \`DELETE \${path}/:id\`);
  }

  async expectGone(path: string, id: unknown): Promise<void> {
    expectStatus(await this.request('GET', \`\${path}/\${String(id)}\`), [404], \`GET \${path}/:id after DELETE\`);
  }
}

function expectStatus(response: SmokeResponse, expected: number[], what: string): unknown {
  assert.ok(expected.includes(response.status), \`\${what} answered \${response.status}: \${JSON.stringify(response.body)}\`);
  return response.body;
}

function asRow(value: unknown): Row {
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value), \`expected an object, got \${JSON.stringify(value)}\`);
  return value as Row;
}
${
  auth
    ? `
/** An HS256 access token, as the app's own login issues them. */
function signToken(claims: Record<string, unknown>): string {
  const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const payload = { sub: 'smoke-test', exp: Math.floor(Date.now() / 1000) + 3600, roles: SMOKE_ROLES, ...claims };
  const unsigned = \`\${encode({ alg: 'HS256', typ: 'JWT' })}.\${encode(payload)}\`;
  return \`\${unsigned}.\${createHmac('sha256', SMOKE_JWT_SECRET).update(unsigned).digest('base64url')}\`;
}
`
    : ''
}
let running: Promise<INestApplication> | undefined;

async function startApp(): Promise<INestApplication> {
  const app = ${CREATE_APP[options.platform]};
  configureSvcApp(app);
  await app.listen(0, '127.0.0.1');
  return app;
}

/** A client of the app, started on first use and shared by every smoke test of the run. */
export async function smokeClient(): Promise<SmokeClient> {
  running ??= startApp();
  const app = await running;
  return new SmokeClient(await app.getUrl());
}

/** Stops the app (and its database); safe to call more than once. */
export async function stopSmokeApp(): Promise<void> {
  const app = running;
  running = undefined;
  if (app !== undefined) await (await app).close();
}
`;
}

type Entries = ReadonlyArray<readonly [string, string]>;

function statement(doc: Doc): Doc {
  return [doc, ';'];
}

function creation(step: CreationStep): Doc {
  return statement([`const ${step.variable} = await `, call('client.create', [str(`/${step.entity.route}`), objectDoc(step.body)])]);
}

function authorize(claims: Entries, placeholders: readonly string[] = []): Doc {
  const doc = statement(call('client.authorize', [objectDoc(claims)]));
  if (placeholders.length === 0) return doc;
  const names = placeholders.join(', ');
  return [`// Any ${names} will do: creating an organization needs an organization context, not a particular one.`, hardline, doc];
}

/** Whether \`entity\` is the organizations table: the organization field of another entity refers to it. */
function isOrganizationEntity(model: ServiceModel, entity: EntityModel): boolean {
  const field = model.auth?.organizationField;
  if (field === undefined) return false;
  return model.entities.some((other) =>
    other.relations.some((relation) => relation.kind === 'many-to-one' && relation.foreignKey === field && relation.target === entity.name),
  );
}

/** The generated routes of \`entity\` its smoke test cannot exercise, each with the reason the test prints. */
function skippedSteps(model: ServiceModel, entity: EntityModel): string[] {
  if (!(entity.routes as readonly string[]).includes('update') || updatedField(model, entity) !== undefined) return [];
  return [`skipped PATCH /${entity.route}/:id: ${entity.name} has no text, integer, boolean or enum field the smoke test may change`];
}

/** The statements of the test: setup, then each generated route the entity serves. */
function testBody(model: ServiceModel, entity: EntityModel, setup: Extract<SmokeSetup, { ok: true }>): Doc[] {
  const path = str(`/${entity.route}`);
  const has = (route: string): boolean => (entity.routes as readonly string[]).includes(route);
  const body: Doc[] = ['const client = await smokeClient();'];
  for (const step of setup.steps) body.push(step.kind === 'create' ? creation(step) : authorize(step.claims, step.placeholders));
  body.push(statement(call('assert.notEqual', ['created.id', 'undefined'])));
  // An organization row is reached by callers of that organization; a user record, by its user.
  const organizationField = model.auth?.organizationField;
  if (organizationField !== undefined && isOrganizationEntity(model, entity)) {
    body.push(authorize([...setup.claims.filter(([claim]) => claim !== organizationField), [organizationField, 'created.id']]));
  } else if (model.auth?.userEntity === entity.name) {
    body.push(authorize([...setup.claims, ['sub', 'created.id']]));
  }
  if (has('find')) body.push(statement(['await ', call('client.expectListed', [path, 'created.id'])]));
  if (has('get')) {
    body.push(statement(['const found = await ', call('client.get', [path, 'created.id'])]));
    body.push(statement(call('assert.equal', ['found.id', 'created.id'])));
  }
  // A step the test cannot take says so in the runner's output.
  for (const reason of skippedSteps(model, entity)) body.push(statement(call('t.diagnostic', [str(reason)])));
  const update = updatedField(model, entity);
  if (has('update') && update !== undefined) {
    const changed = `changes.${update.name}`;
    body.push(statement(['const changes = ', objectDoc([[update.name, update.value]])]));
    body.push(statement(['const updated = await ', call('client.update', [path, 'created.id', 'changes'])]));
    body.push(statement(call('assert.equal', [`updated.${update.name}`, changed])));
    if (has('get')) {
      body.push(statement(['const reread = await ', call('client.get', [path, 'created.id'])]));
      body.push(statement(call('assert.equal', [`reread.${update.name}`, changed])));
    }
  }
  if (has('delete')) {
    body.push(statement(['await ', call('client.remove', [path, 'created.id'])]));
    if (has('get')) body.push(statement(['await ', call('client.expectGone', [path, 'created.id'])]));
  }
  return body;
}

export function emitSmokeSpec(model: ServiceModel, entity: EntityModel, options: EmitOptions): string {
  const setup = smokeSetup(model, entity);
  const title = str(`creates, lists, reads, updates and deletes ${article(entity.name)} ${entity.name}`);
  const reason = setup.ok ? undefined : `cannot create ${article(entity.name)} ${entity.name}: ${setup.reason}`;
  const body = reason === undefined ? testBody(model, entity, setup as Extract<SmokeSetup, { ok: true }>) : [];
  const usesContext = reason === undefined && skippedSteps(model, entity).length > 0;
  const test: Doc =
    reason === undefined
      ? [`it(${title}, async (${usesContext ? 't' : ''}) => {`, indent([hardline, join(hardline, body)]), hardline, '});']
      : `it(${title}, { skip: REASON }, () => {});`;
  const doc: Doc = [
    ...(reason === undefined ? ["import assert from 'node:assert/strict';", hardline] : []),
    "import { after, describe, it } from 'node:test';",
    hardline,
    `import { ${reason === undefined ? 'smokeClient, ' : ''}stopSmokeApp } from './smoke-app${options.importExtension}';`,
    hardline,
    hardline,
    ...(reason === undefined ? [] : [group(['const REASON =', indent([line, `${str(reason)};`])]), hardline, hardline]),
    'after(stopSmokeApp);',
    hardline,
    hardline,
    `describe(${str(`/${entity.route} (smoke test)`)}, () => {`,
    indent([hardline, test]),
    hardline,
    '});',
    hardline,
  ];
  return print(doc);
}
