/**
 * The generated smoke tests (`npm test` of a generated app) pass for each shape of `auth`, with no edits: users in
 * organizations with and without `adminRoles`, memberships (`accountUserEntity`) and sessions, API keys only with a
 * tenant that is another row's id (`scopeBy: "team.id"`). They
 * depend on no id and on no order: each test creates what it needs, and the same tests run again in reverse order.
 * A test that cannot create its resource is skipped, and node's test runner prints why.
 * Apps from `svc init --skip-install`, sharing this repository's node_modules by symlink.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertBuilt, cleanEnv, initProject, svc, tempDir, writeJson } from './generate.helpers';

const ORGANIZATION = { name: 'Organization', fields: [{ name: 'name', type: 'text', unique: true }] };
const USER_FIELDS = [
  { name: 'email', type: 'text', unique: true, is_email: true },
  { name: 'password', type: 'text' },
  { name: 'role', type: 'enum', values: ['owner', 'member'], default: 'member' },
];
/** Realtime: the smoke test also follows `GET /projects/changes` through the update and the delete. */
const PROJECT = { name: 'Project', realtime: true, fields: [{ name: 'name', type: 'text', unique: true }], scopeBy: 'organizationId' };
const NOTE = {
  name: 'Note',
  fields: [
    { name: 'title', type: 'text' },
    { name: 'pinned', type: 'boolean', default: false },
  ],
  scopeBy: 'project.organizationId',
};

/** docs/getting-started.md's last `.svcrc`: users who belong to an organization, administered by owners. */
function usersInOrganizations(auth: object): object {
  return {
    version: 2,
    auth: { userEntity: 'User', organizationField: 'organizationId', globalGuards: true, ...auth },
    entities: [ORGANIZATION, { name: 'User', fields: USER_FIELDS }, PROJECT, NOTE],
    relationships: [
      { from: 'Note', to: 'Project', type: 'ManyToOne' },
      { from: 'Project', to: 'Organization', type: 'ManyToOne' },
      { from: 'User', to: 'Organization', type: 'ManyToOne', nullable: false },
    ],
  };
}

interface Configuration {
  readonly name: string;
  readonly svcrc: object;
  /** The describe title of each smoke test that runs, and of each that is skipped with the reason it prints. */
  readonly passes: readonly string[];
  readonly skips: Readonly<Record<string, string>>;
}

const CONFIGURATIONS: readonly Configuration[] = [
  {
    name: 'users in organizations, with adminRoles',
    svcrc: usersInOrganizations({ adminRoles: ['owner'] }),
    passes: ['/organizations', '/users', '/projects', '/notes'],
    skips: {},
  },
  {
    name: 'users in organizations, without adminRoles',
    svcrc: usersInOrganizations({}),
    passes: [],
    skips: {
      '/organizations':
        'cannot create an Organization: POST /organizations is for administrators (auth.adminRoles), and this .svcrc names no admin role',
      '/users': 'cannot create a User: POST /users is for administrators (auth.adminRoles), and this .svcrc names no admin role',
      '/projects':
        'cannot create a Project: it needs an Organization first, and POST /organizations is for administrators (auth.adminRoles), and this .svcrc names no admin role',
      '/notes':
        'cannot create a Note: it needs an Organization first, and POST /organizations is for administrators (auth.adminRoles), and this .svcrc names no admin role',
    },
  },
  {
    name: 'memberships (accountUserEntity) and sessions, uuid ids',
    svcrc: {
      version: 2,
      idType: 'uuid',
      auth: {
        userEntity: 'User',
        accountUserEntity: 'Membership',
        sessionEntity: 'Session',
        organizationField: 'organizationId',
        adminRoles: ['admin'],
        globalGuards: true,
      },
      entities: [
        ORGANIZATION,
        { name: 'User', fields: USER_FIELDS.slice(0, 2) },
        {
          name: 'Membership',
          fields: [{ name: 'role', type: 'enum', values: ['admin', 'member'], default: 'member' }],
          scopeBy: 'organizationId',
        },
        { name: 'Session', fields: [{ name: 'expiresAt', type: 'timestamptz' }] },
        PROJECT,
      ],
      relationships: [
        { from: 'Membership', to: 'User', type: 'ManyToOne', nullable: false },
        { from: 'Membership', to: 'Organization', type: 'ManyToOne', nullable: false },
        { from: 'Session', to: 'User', type: 'ManyToOne', nullable: false },
        { from: 'Project', to: 'Organization', type: 'ManyToOne', nullable: false },
      ],
    },
    passes: ['/organizations', '/users', '/memberships', '/projects'],
    skips: {},
  },
  {
    name: 'API keys only, guards on the generated routes only',
    svcrc: {
      version: 2,
      auth: { apiKeyPrefix: 'acme' },
      entities: [
        { name: 'Team', fields: [{ name: 'name', type: 'text' }] },
        { name: 'Invoice', fields: [{ name: 'total', type: 'decimal', precision: 10, scale: 2 }], scopeBy: 'team.id' },
        { name: 'Tag', fields: [{ name: 'label', type: 'text' }] },
      ],
      relationships: [{ from: 'Invoice', to: 'Team', type: 'ManyToOne', nullable: false }],
    },
    passes: ['/teams', '/invoices', '/tags'],
    skips: {},
  },
];

let parent: string;
beforeAll(() => {
  assertBuilt();
  parent = tempDir('smoke-auth');
});
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** The error lines of node --test's TAP output (`error: 'POST /users answered 403: ...'`), and of tsc. */
function failures(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => /^\s*error: |error TS\d+/.test(line))
    .map((line) => line.trim());
}

/** node --test's TAP output: a line `ok <n> - <title>` per describe, `# SKIP <reason>` on each skipped test. */
function expectTap(output: string, configuration: Configuration): void {
  for (const route of configuration.passes) expect(output).toMatch(new RegExp(`^ok \\d+ - ${route} \\(smoke test\\)$`, 'm'));
  for (const [route, reason] of Object.entries(configuration.skips)) {
    expect(output).toContain(`# SKIP ${reason}\n`);
    expect(output).toMatch(new RegExp(`^ok \\d+ - ${route} \\(smoke test\\)$`, 'm'));
  }
  expect(output).toMatch(new RegExp(`^# pass ${configuration.passes.length}$`, 'm'));
  expect(output).toMatch(new RegExp(`^# skipped ${Object.keys(configuration.skips).length}$`, 'm'));
  expect(output).toMatch(/^# fail 0$/m);
}

describe.each(CONFIGURATIONS)('the smoke tests of an app with $name', (configuration) => {
  it('pass as generated, and again in reverse order', () => {
    const name = `app-${CONFIGURATIONS.indexOf(configuration)}`;
    const project = initProject(parent, name);
    writeJson(join(project, '.svcrc'), { $schema: './node_modules/@svc/nest/schemas/svcrc.schema.json', ...configuration.svcrc });
    const generate = svc(project, ['generate']);
    expect(generate.stderr).toBe('');
    expect(generate.code).toBe(0);

    const test = spawnSync('npm', ['test'], { cwd: project, encoding: 'utf8', env: cleanEnv(), timeout: 240_000 });
    expect({ code: test.status, failures: failures(test.stdout + test.stderr) }).toEqual({ code: 0, failures: [] });
    expectTap(test.stdout, configuration);

    // The same compiled tests, in the reverse of the generated order.
    const compiled = join(project, 'dist-test', 'autogen', 'e2e');
    const order = [...readFileSync(join(compiled, 'smoke.e2e-spec.js'), 'utf8').matchAll(/require\("(\.\/[\w-]+\.e2e-spec)"\)/g)].map(
      (match) => match[1]!,
    );
    expect(order).toHaveLength(configuration.passes.length + Object.keys(configuration.skips).length);
    writeFileSync(
      join(compiled, 'reversed.e2e-spec.js'),
      order
        .toReversed()
        .map((spec) => `require('${spec}');\n`)
        .join(''),
    );
    const reversed = spawnSync(process.execPath, ['--test', join(compiled, 'reversed.e2e-spec.js')], {
      cwd: project,
      encoding: 'utf8',
      env: cleanEnv(),
      timeout: 240_000,
    });
    expect({ code: reversed.status, failures: failures(reversed.stdout + reversed.stderr) }).toEqual({ code: 0, failures: [] });
    expectTap(reversed.stdout, configuration);
  }, 600_000);
});
