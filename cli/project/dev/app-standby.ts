/**
 * A standby application process for `svc dev`, started with the application's environment and its
 * working directory while the previous instance still runs. It loads the application's heavy
 * dependencies ahead of time (about 2 s of module loading on a small machine), then waits; told to
 * start, it runs the freshly compiled entry file. Only `node_modules` is preloaded: the
 * application's own compiled files are loaded at start, so they are always the current ones.
 *
 * The entry is loaded with `import()`, which runs a CommonJS `main.js` (what `svc init` writes) as
 * `require()` would, and also an ECMAScript module with top-level `await` (`nest new` ends
 * `main.ts` with `await bootstrap();`), which `require()` refuses (`ERR_REQUIRE_ASYNC_MODULE`).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What a generated application loads on every start; a package the project lacks is skipped. */
const PRELOADED = [
  'reflect-metadata',
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
  'typeorm',
  '@nestjs/typeorm',
  '@nestjs/swagger',
  'class-validator',
  'class-transformer',
  'pg',
  '@svc/nest',
] as const;

/** The message `svc dev` sends to start the application. */
export interface StandbyStart {
  readonly entry: string;
}

const requireFromProject = createRequire(join(process.cwd(), 'package.json'));
for (const name of PRELOADED) {
  try {
    requireFromProject(name);
  } catch {
    // Not a dependency of this project (or broken: the application's own start reports it).
  }
}

// Orphaned (svc dev gone) before being used: nothing to run.
const onDisconnect = (): void => process.exit(0);
process.on('disconnect', onDisconnect);
process.once('message', (message: StandbyStart) => {
  process.off('disconnect', onDisconnect);
  process.disconnect();
  process.argv[1] = message.entry;
  import(pathToFileURL(message.entry).href).catch((error: unknown) => {
    // What an uncaught error at start would print, and its exit code.
    console.error(error);
    process.exit(1);
  });
});
process.send?.('ready');
