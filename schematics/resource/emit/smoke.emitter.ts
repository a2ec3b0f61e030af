/**
 * The generated end-to-end smoke tests, under `<autogen>/e2e/`: one `<route>.e2e-spec.ts` per
 * resource with routes (list, create, get, update and delete over HTTP), `smoke-app.ts` (a few lines
 * handing the app's schema and modules to `smokeApp()` of `@svc/nest/testing`, which starts the app on
 * an in-memory PGlite database and signs tokens with the app's own token service), and
 * `smoke.e2e-spec.ts`, which runs them all in one process: the app starts once. They run on Node's own test runner (`node --test`), so the app needs no test
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

/** What the smoke app of a Fastify app adds: the adapter its `main.ts` creates. */
const FASTIFY_IMPORTS = [
  "import { FastifyAdapter } from '@nestjs/platform-fastify';",
  "import { svcFastifyOptions } from '@svc/nest';",
];

/**
 * `smoke-app.ts`: the harness of `@svc/nest/testing` given the app's schema, modules and smoke
 * headers. It decides at run time what depends on `auth` (tokens, global guards, roles).
 */
export function emitSmokeApp(options: SmokeOptions): string {
  const ext = options.importExtension;
  const settings: [string, Doc][] = [
    ['schema', 'svcSchema'],
    ['imports', arrayDoc(['AutogenModule', 'ExtensionsModule'])],
    ['headers', 'smokeHeaders'],
  ];
  if (options.platform === 'fastify') settings.push(['httpAdapter', '() => new FastifyAdapter(svcFastifyOptions())']);
  const imports = [
    ...(options.platform === 'fastify' ? FASTIFY_IMPORTS : []),
    "import { smokeApp } from '@svc/nest/testing';",
    `import { ExtensionsModule } from '../../extensions/extensions.module${ext}';`,
    `import { smokeHeaders } from '../../extensions/smoke-setup${ext}';`,
    `import { AutogenModule } from '../autogen.module${ext}';`,
    `import { svcSchema } from '../svc.schema${ext}';`,
  ];
  const declaration = print([
    '/** The app under test, on an in-memory PGlite database, and clients whose tokens it signs itself. */',
    hardline,
    'export const { smokeClient, stopSmokeApp } = ',
    call('smokeApp', [objectDoc(settings)]),
    ';',
  ]);
  return `${imports.join('\n')}\n\n${declaration}\n`;
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
  // A realtime entity's feed must carry the update and the delete that follow.
  const follows = entity.realtime && has('find') && ((has('update') && update !== undefined) || has('delete'));
  if (follows) body.push(statement(['const feed = await ', call('client.followChanges', [path])]));
  if (has('update') && update !== undefined) {
    const changed = `changes.${update.name}`;
    body.push(statement(['const changes = ', objectDoc([[update.name, update.value]])]));
    body.push(statement(['const updated = await ', call('client.update', [path, 'created.id', 'changes'])]));
    body.push(statement(call('assert.equal', [`updated.${update.name}`, changed])));
    if (has('get')) {
      body.push(statement(['const reread = await ', call('client.get', [path, 'created.id'])]));
      body.push(statement(call('assert.equal', [`reread.${update.name}`, changed])));
    }
    if (follows) {
      body.push(statement(['const upserted = await ', call('feed.expect', [str('upsert'), 'created.id'])]));
      body.push(statement(call('assert.equal', [`upserted.${update.name}`, changed])));
    }
  }
  if (has('delete')) {
    body.push(statement(['await ', call('client.remove', [path, 'created.id'])]));
    if (has('get')) body.push(statement(['await ', call('client.expectGone', [path, 'created.id'])]));
    if (follows) body.push(statement(['await ', call('feed.expect', [str('remove'), 'created.id'])]));
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
