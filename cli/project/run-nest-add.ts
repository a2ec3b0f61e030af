/**
 * Runs this package's `nest-add` schematic on a project folder (as `nest add @svc/nest` would), so
 * that `svc init` produces exactly the app module, `main.ts`, `.svcrc` and `extensions/` that
 * `nest add` produces. Same workflow as `runResourceSchematic`.
 */
import { logging, schema } from '@angular-devkit/core';
import { UnsuccessfulWorkflowExecution } from '@angular-devkit/schematics';
import { NodeWorkflow } from '@angular-devkit/schematics/tools';
import { resolve } from 'node:path';
import { lastValueFrom } from 'rxjs';
import type { NestAddSchema } from '../../schematics/nest-add/nest-add.schema';
import { svcCollectionPath, type SchematicChange } from '../../schematics/run-schematic';

export interface RunNestAddResult {
  readonly ok: boolean;
  readonly changes: readonly SchematicChange[];
  readonly error?: string;
}

export async function runNestAddSchematic(
  cwd: string,
  options: NestAddSchema,
  logger: logging.Logger = new logging.NullLogger(),
): Promise<RunNestAddResult> {
  const root = resolve(cwd);
  const workflow = new NodeWorkflow(root, { force: false, dryRun: false, resolvePaths: [root, __dirname], schemaValidation: true });
  workflow.registry.addPostTransform(schema.transforms.addUndefinedDefaults);
  const changes: SchematicChange[] = [];
  let sinkError: string | undefined;
  const subscription = workflow.reporter.subscribe((event) => {
    const path = event.path.replace(/^\/+/, '');
    if (event.kind === 'error') sinkError = `${path} ${event.description === 'alreadyExist' ? 'already exists' : 'does not exist'}`;
    else if (event.kind === 'create' || event.kind === 'update' || event.kind === 'delete') changes.push({ kind: event.kind, path });
  });
  try {
    await lastValueFrom(
      workflow.execute({
        collection: svcCollectionPath(),
        schematic: 'nest-add',
        options,
        allowPrivate: false,
        debug: false,
        logger,
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
