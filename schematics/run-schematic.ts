/**
 * Runs the `resource` schematic on a project folder, for `svc generate`:
 *
 * ```ts
 * const result = await runResourceSchematic({ cwd: process.cwd(), entity: 'Task', dryRun: true });
 * for (const change of result.changes) console.log(change.kind.toUpperCase(), change.path);
 * if (!result.ok) { console.error(result.error); process.exitCode = 1; }
 * ```
 *
 * The workflow is the one the schematics CLI uses (`NodeWorkflow` on the real file system), so
 * `nest g`, `npx schematics` and `svc generate` produce the same files.
 */
import { logging, schema } from '@angular-devkit/core';
import { UnsuccessfulWorkflowExecution } from '@angular-devkit/schematics';
import { NodeWorkflow } from '@angular-devkit/schematics/tools';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { lastValueFrom } from 'rxjs';
import type { ResourceSchema } from './resource/resource.schema';

export interface RunResourceSchematicOptions {
  /** Project root: where `.svcrc` and `package.json` are. */
  readonly cwd: string;
  /** Generate only this entity (and the shared module, model and index). */
  readonly entity?: string;
  /** Overwrite or delete generated files even when they were edited by hand. */
  readonly force?: boolean;
  /** Report the changes without writing them. */
  readonly dryRun?: boolean;
  /** `.svcrc` path relative to `cwd`. Default `.svcrc`. */
  readonly schema?: string;
  /** Source root override (default: `rootFolder` of `.svcrc`). */
  readonly sourceRoot?: string;
  /** Receives the schematic's log messages (warnings such as the files `force` overwrote). */
  readonly logger?: logging.Logger;
  /** Collection to run; default: this package's `collection.json`. For tests. */
  readonly collection?: string;
}

export interface SchematicChange {
  readonly kind: 'create' | 'update' | 'delete';
  /** Path relative to `cwd`, `/`-separated. */
  readonly path: string;
}

export interface RunResourceSchematicResult {
  /** Whether the schematic completed (in a dry run: would complete). */
  readonly ok: boolean;
  /** Changes made (or, in a dry run, that would be made), in order. Empty when nothing changed. */
  readonly changes: readonly SchematicChange[];
  /** Why it failed: an invalid `.svcrc`, an unknown entity, hand-edited files... */
  readonly error?: string;
}

/** `collection.json` of this package, found upwards from this file (`dist/schematics/` or `schematics/`). */
export function packageCollectionPath(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = join(dir, 'collection.json');
    const pkg = join(dir, 'package.json');
    if (existsSync(candidate) && existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === '@svc/nest') {
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`collection.json of @svc/nest not found above ${__dirname}`);
    dir = parent;
  }
}

/**
 * The collection `svc` runs itself: `dist/schematics/collection.json`, written at build without
 * `extends`, so that @nestjs/schematics (an optional peer, needed only by `nest g`) may be absent.
 * From the sources (tests), the package's own collection.
 */
export function svcCollectionPath(): string {
  const standalone = join(__dirname, 'collection.json');
  return existsSync(standalone) ? standalone : packageCollectionPath();
}

export async function runResourceSchematic(options: RunResourceSchematicOptions): Promise<RunResourceSchematicResult> {
  const root = resolve(options.cwd);
  const workflow = new NodeWorkflow(root, {
    // The workflow's force is what the schematic reads for `npx schematics ... --force`; ours is an option.
    force: false,
    dryRun: options.dryRun === true,
    resolvePaths: [root, __dirname],
    schemaValidation: true,
  });
  workflow.registry.addPostTransform(schema.transforms.addUndefinedDefaults);

  const changes: SchematicChange[] = [];
  let sinkError: string | undefined;
  const subscription = workflow.reporter.subscribe((event) => {
    const path = event.path.replace(/^\/+/, '');
    if (event.kind === 'error') sinkError = `${path} ${event.description === 'alreadyExist' ? 'already exists' : 'does not exist'}`;
    else if (event.kind === 'create' || event.kind === 'update' || event.kind === 'delete') changes.push({ kind: event.kind, path });
  });

  const schematicOptions: ResourceSchema = {
    ...(options.entity !== undefined ? { entity: options.entity } : {}),
    ...(options.schema !== undefined ? { schema: options.schema } : {}),
    ...(options.sourceRoot !== undefined ? { sourceRoot: options.sourceRoot } : {}),
    force: options.force === true,
  };
  try {
    await lastValueFrom(
      workflow.execute({
        collection: options.collection ?? svcCollectionPath(),
        schematic: 'resource',
        options: schematicOptions,
        allowPrivate: false,
        debug: false,
        logger: options.logger ?? new logging.NullLogger(),
      }),
      { defaultValue: undefined },
    );
    return { ok: true, changes };
  } catch (error) {
    const message = error instanceof UnsuccessfulWorkflowExecution ? (sinkError ?? error.message) : (error as Error).message;
    return { ok: false, changes: [], error: message };
  } finally {
    subscription.unsubscribe();
  }
}
