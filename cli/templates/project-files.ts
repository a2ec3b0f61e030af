/**
 * The files `svc init` writes before running the `nest-add` schematic, which then adds `.svcrc`,
 * `src/extensions/README.md`, the svc scripts and the generated code. `main.ts` and
 * `app.module.ts` start as `nest new` writes them, so that `nest-add` turns them into the same
 * shape as in any other Nest application.
 */

import { SVC_DEV_DEPENDENCIES } from '../../schematics/nest-add/svc-dev-dependencies';
import { SCALE_DEPENDENCIES } from './deployment-files';

/** The HTTP platform of a generated application (`svc init --adapter`). */
export const ADAPTERS = ['express', 'fastify'] as const;
export type Adapter = (typeof ADAPTERS)[number];
/**
 * Fastify by default: on point reads Nest's Express adapter costs about twice the server CPU of the
 * Fastify one (docs/engineering/performance.md, "Default app vs floor"); Express is `--adapter express`.
 */
export const DEFAULT_ADAPTER: Adapter = 'fastify';

export interface ProjectTemplateInput {
  readonly name: string;
  readonly adapter: Adapter;
  /** `@svc/nest` dependency spec: `^0.1.0`, or `file:/abs/path/svc-nest-0.1.0.tgz`. */
  readonly svcPackageSpec: string;
  /** Version ranges of the libraries, from `@svc/nest`'s own package.json. */
  readonly versions: Readonly<Record<string, string>>;
  /** Node.js versions the application supports: `@svc/nest`'s own `engines.node`. */
  readonly nodeEngines: string;
}

/** Libraries a generated application imports directly (besides `@svc/nest` and its platform's). */
export const APP_DEPENDENCIES = [
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/swagger',
  '@nestjs/typeorm',
  'class-transformer',
  'class-validator',
  'pg',
  'reflect-metadata',
  'rxjs',
  'typeorm',
] as const;

/** The platform's packages: Nest's adapter; on Fastify also `@fastify/static`, which serves the `/_docs` page's assets. */
export const ADAPTER_DEPENDENCIES: Readonly<Record<Adapter, readonly string[]>> = {
  express: ['@nestjs/platform-express'],
  fastify: ['@nestjs/platform-fastify', '@fastify/static'],
};

/**
 * TypeScript pinned: 7 has no compiler API (no ts-jest, no \`nest build\`). The linter and the
 * formatter take \`@svc/nest\`'s own versions.
 */
export const APP_DEV_DEPENDENCIES: Readonly<Record<string, string>> = {
  '@eslint/js': '^10.0.1',
  '@types/node': '^20.19.0',
  eslint: '^10.15.0',
  prettier: '^3.10.1',
  typescript: '~6.0.3',
  'typescript-eslint': '^8.73.0',
};

/** Where the generated smoke tests are compiled to, and the one file that runs them all. */
export const TEST_OUT_DIR = 'dist-test';
const SMOKE_ENTRY = `${TEST_OUT_DIR}/autogen/e2e/smoke.e2e-spec.js`;

/** `rm -rf dist` that also works on Windows: stale output of deleted entities would be loaded by `svc migrate`. */
const CLEAN_DIST = `node -e "require('node:fs').rmSync('dist',{recursive:true,force:true})"`;

export function packageJson(input: ProjectTemplateInput): string {
  const dependencies: Record<string, string> = { '@svc/nest': input.svcPackageSpec };
  for (const name of [...APP_DEPENDENCIES, ...ADAPTER_DEPENDENCIES[input.adapter], ...SCALE_DEPENDENCIES]) {
    const range = input.versions[name];
    if (range === undefined) throw new Error(`no version of ${name} in @svc/nest's package.json`);
    dependencies[name] = range;
  }
  const sorted = Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const manifest = {
    name: input.name,
    version: '0.1.0',
    private: true,
    description: 'REST backend generated from .svcrc by @svc/nest',
    scripts: {
      prebuild: CLEAN_DIST,
      build: 'tsc -p tsconfig.build.json',
      start: 'node dist/main.js',
      'start:dev': 'svc dev',
      lint: 'tsc -p tsconfig.json --noEmit && eslint .',
      format: 'prettier --write .',
      // Node's own test runner on the compiled tests: no test framework, no transform of Nest's ES modules.
      test: `tsc -p tsconfig.json --outDir ${TEST_OUT_DIR} && node --test ${SMOKE_ENTRY}`,
      'svc:generate': 'svc generate',
      'svc:validate': 'svc schema validate',
      'migrate:generate': 'svc migrate generate',
      'migrate:run': 'svc migrate run',
      'migrate:status': 'svc migrate status',
    },
    engines: { node: input.nodeEngines },
    dependencies: sorted,
    devDependencies: devDependencies(input.versions),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function devDependencies(versions: Readonly<Record<string, string>>): Record<string, string> {
  const all: Record<string, string> = { ...APP_DEV_DEPENDENCIES, ...pickVersions(versions, Object.keys(APP_DEV_DEPENDENCIES)) };
  for (const name of SVC_DEV_DEPENDENCIES) {
    const range = versions[name];
    if (range === undefined) throw new Error(`no version of ${name} in @svc/nest's package.json`);
    all[name] = range;
  }
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2023",
    "lib": ["ES2023"],
    "module": "node20",
    "moduleResolution": "node16",
    "strict": true,
    "experimentalDecorators": true,
    "emitDecoratorMetadata": true,
    "esModuleInterop": true,
    "skipLibCheck": true,
    "forceConsistentCasingInFileNames": true,
    "sourceMap": true,
    "outDir": "dist",
    "rootDir": "src",
    "types": ["node"]
  },
  "include": ["src"]
}
`;

export const TSCONFIG_BUILD = `{
  "extends": "./tsconfig.json",
  "exclude": ["node_modules", "dist", "**/*.spec.ts", "**/*.e2e-spec.ts", "src/autogen/e2e"]
}
`;

/**
 * ESLint (flat config) with typescript-eslint's recommended rules. Generated folders are
 * ignored: \`svc generate\` rewrites them, and a fix applied there would count as a hand edit.
 */
export const ESLINT_CONFIG = `// @ts-check
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // Generated by svc generate from .svcrc: never edited, so never linted or fixed.
  { ignores: ['dist/', '${TEST_OUT_DIR}/', 'src/autogen/', 'src/guards/'] },
  eslint.configs.recommended,
  tseslint.configs.recommended,
);
`;

/**
 * As \`nest new\` writes it, or for Fastify as Nest's documentation does (listening on every
 * interface: Fastify's default is localhost only); \`nest-add\` adds \`configureSvcApp(app)\`, the
 * port and, on Fastify, \`svcFastifyOptions()\`.
 */
export const MAIN_TS: Readonly<Record<Adapter, string>> = {
  express: `import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  await app.listen(process.env.PORT ?? 3000);
}
void bootstrap();
`,
  fastify: `import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter());
  await app.listen(process.env.PORT ?? 3000, '0.0.0.0');
}
void bootstrap();
`,
};

/** An empty root module; \`nest-add\` imports \`SvcModule\` and \`AutogenModule\` into it. */
export const APP_MODULE_TS = `import { Module } from '@nestjs/common';

@Module({})
export class AppModule {}
`;

/**
 * Prettier settings of the generated code (which \`nest-add\` lists in \`.prettierignore\`: a
 * reformatted generated file would count as hand-edited), for the team's own files.
 */
export const PRETTIERRC = `{
  "singleQuote": true,
  "trailingComma": "all",
  "printWidth": 140
}
`;

export const GITIGNORE = `node_modules/
dist/
# compiled tests of npm test
${TEST_OUT_DIR}/
# PGlite data of svc dev (PGLITE_DATA_DIR)
.svc/
.env
*.log
coverage/
`;

export const ENV_EXAMPLE = `# Settings of this service. Copy this file to .env and uncomment what you need:
# \`svc dev\` and \`svc migrate\` read .env (variables already set in the environment win).
# \`npm start\` does not read it: run \`node --env-file=.env dist/main.js\`, or set the variables
# in your deployment.

# Port the API listens on. Default 3100.
APP_PORT=3100
# Alternative port variable, used when APP_PORT is unset.
# PORT=3100

# Database kind: pglite (embedded PostgreSQL, nothing to install) or postgres.
# Default: postgres when DATABASE_URL is set, else pglite.
# DATABASE_TYPE=pglite

# PGlite data folder, or "memory" for a database that lives as long as the process.
# Default .svc/data. One process at a time may open a folder (it is locked).
# PGLITE_DATA_DIR=.svc/data

# PostgreSQL connection string: postgres://<user>:<password>@<host>:<port>/<database>
# URL-encode special characters in the user and password (@ as %40, : as %3A, / as %2F).
# Add ?sslmode=require for TLS.
# DATABASE_URL=postgres://app:secret@localhost:5432/app

# true: create and alter tables to match the entities at startup (local use only).
# Default true on PGlite, false on PostgreSQL; \`svc dev\` turns it on.
# In production keep it false and apply migrations with \`svc migrate\`.
# DATABASE_SYNC=false

# Secret that signs end-user access tokens when .svcrc declares "auth". Required in production,
# where a secret under 32 bytes or this placeholder is refused: make one with \`openssl rand -base64 48\`.
# JWT_SECRET=change-me

# production in deployments.
# NODE_ENV=development

# Log verbosity, e.g. debug for verbose logging.
# LOG_LEVEL=debug
`;

export function readme(name: string): string {
  return `# ${name}

A REST backend generated from [\`.svcrc\`](./.svcrc) by [\`@svc/nest\`](https://www.npmjs.com/package/@svc/nest)
(NestJS, TypeORM, PostgreSQL or embedded PGlite).

## Run it

\`\`\`bash
npm install          # once
npx svc dev          # http://localhost:3100, OpenAPI page at http://localhost:3100/_docs
\`\`\`

\`svc dev\` compiles in watch mode, restarts on every change, regenerates \`src/autogen/\` when
\`.svcrc\` changes, and keeps its data in \`.svc/data\` (embedded PGlite, schema synchronized).
Options: \`--port <n>\`, \`--no-watch\`.

Production-like run:

\`\`\`bash
npm run build
npm start            # node dist/main.js; settings from the environment (see .env.example)
\`\`\`

## Test, lint, format

\`\`\`bash
npm test             # the generated smoke test of each resource (src/autogen/e2e/), on in-memory PGlite
npm run lint         # tsc and ESLint
npm run format       # Prettier
\`\`\`

ESLint and Prettier leave \`src/autogen/\` and \`src/guards/\` alone: they are regenerated. If a guard
of yours needs something the smoke tests do not send, set it in \`src/extensions/smoke-setup.ts\`.

## Change the API

1. Edit \`.svcrc\` (your editor completes it: it names its JSON Schema in \`$schema\`).
2. \`npx svc schema validate\` (or \`npm run svc:validate\`): every problem, with its location.
3. \`npx svc generate\` (or \`npm run svc:generate\`): rewrites \`src/autogen/\`; \`--dry-run\` shows the changes first.
   While \`npx svc dev\` runs, it does this itself on every save of \`.svcrc\`, and restarts the app.
4. Review the diff, then build and test.

## Where your code goes

| Path                               | Owner                                                         |
| ---------------------------------- | ------------------------------------------------------------- |
| \`.svcrc\`                           | you: the generation contract                                  |
| \`src/autogen/\`, \`src/guards/\`      | the generator: do not edit, regenerate                        |
| \`src/extensions/\`                  | you: custom endpoints, hooks, business rules (see its README) |
| \`src/migrations/\`                  | you: generate, review, commit                                 |
| \`src/app.module.ts\`, \`src/main.ts\` | you                                                           |

A generated file edited by hand makes \`svc generate\` stop and name it (\`--force\` overwrites).

## Database and migrations

Locally, PGlite needs nothing: \`svc dev\` keeps its data in \`.svc/data\` and synchronizes its schema.
For PostgreSQL set \`DATABASE_URL\` (see \`.env.example\`): \`svc dev\` then never changes its schema
unless \`DATABASE_SYNC=true\` is set, and even then refuses to drop a column.
Outside development keep \`DATABASE_SYNC=false\` and use migrations. After each change to \`.svcrc\`:

\`\`\`bash
npx svc generate                         # src/autogen/ follows .svcrc
npm run build                            # svc migrate reads the compiled entities in dist/
npx svc migrate generate AddTaskDueDate  # writes src/migrations/<timestamp>-AddTaskDueDate.ts: review it
npm run build
npx svc migrate                          # applies it (DATABASE_URL, else PGlite in .svc/migrated)
npx svc migrate status --check           # exit 1 if the migrations miss a change or are pending
git add .svcrc src && git commit -m "Add the due date of tasks"
\`\`\`

\`svc migrate generate\` compares the entities with the migrations replayed on an empty in-memory
database, never with the database \`svc dev\` synchronized; the first one (\`svc migrate generate Init\`)
creates every table. \`svc migrate\` without \`DATABASE_URL\` applies the migrations to PGlite in
\`.svc/migrated\`, a database only migrations change.
`;
}

function pickVersions(versions: Readonly<Record<string, string>>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (versions[name] !== undefined ? [[name, versions[name]]] : [])));
}
