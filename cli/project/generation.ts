/**
 * Validate `.svcrc`, then run the `resource` schematic: what `svc generate` does, and what
 * `svc dev` does when `.svcrc` changes. Problems are printed as `svc schema validate` prints them.
 */
import { svcrcProblemLines } from './svcrc-problem-lines';
import { logging } from '@angular-devkit/core';
import { join, relative } from 'node:path';
import { readSvcrcFile, SVCRC_FILE } from '../../lib/schema/load-svcrc';
import type { ServiceModel } from '../../lib/schema/model';
import { analyzeSvcrc } from './analyze-svcrc';
import { runResourceSchematic, type SchematicChange } from '../../schematics/run-schematic';
import type { CliIo } from '../svc-command';
import { plural } from './plural';

export interface GenerationInput {
  /** Project root. */
  readonly cwd: string;
  /** `.svcrc` path relative to `cwd` (default `.svcrc`). */
  readonly schema?: string;
  readonly entity?: string;
  readonly dryRun?: boolean;
  readonly force?: boolean;
  readonly io: CliIo;
}

export interface GenerationResult {
  readonly ok: boolean;
  readonly changes: readonly SchematicChange[];
  readonly model?: ServiceModel;
}


/** Reads and checks `.svcrc`; prints every problem (as `svc schema validate` does) when it is not usable. */
export function validateSvcrc(cwd: string, schema: string, io: CliIo): ServiceModel | undefined {
  const file = join(cwd, schema);
  const read = readSvcrcFile(file);
  if (!read.ok) {
    io.err(`✖ ${read.problem.message}`);
    return undefined;
  }
  const { result } = analyzeSvcrc(read.text);
  if (result.ok) return result.model;
  for (const problem of result.problems) io.err(svcrcProblemLines(problem));
  io.err(`${schema} is invalid: ${plural(result.problems.length, 'problem')}. Fix it, then run svc generate again.`);
  return undefined;
}

function schematicLogger(io: CliIo): logging.Logger {
  const logger = new logging.Logger('svc');
  logger.subscribe((entry) => {
    if (entry.level === 'warn' || entry.level === 'error' || entry.level === 'fatal') io.err(`⚠ ${entry.message}`);
    else if (entry.level === 'info') io.out(entry.message);
  });
  return logger;
}

export async function validateAndGenerate(input: GenerationInput): Promise<GenerationResult> {
  const { cwd, io } = input;
  const schema = input.schema ?? SVCRC_FILE;
  const model = validateSvcrc(cwd, schema, io);
  if (model === undefined) return { ok: false, changes: [] };

  const result = await runResourceSchematic({
    cwd,
    schema: relative(cwd, join(cwd, schema)).replace(/\\/g, '/'),
    entity: input.entity,
    dryRun: input.dryRun === true,
    force: input.force === true,
    logger: schematicLogger(io),
  });
  if (!result.ok) {
    io.err(`✖ ${result.error ?? 'generation failed'}`);
    return { ok: false, changes: [], model };
  }
  for (const change of result.changes) io.out(`${change.kind.toUpperCase().padEnd(6)} ${change.path}`);
  const count = (kind: SchematicChange['kind']): number => result.changes.filter((change) => change.kind === kind).length;
  const scope = input.entity === undefined ? plural(model.entities.length, 'entity', 'entities') : `entity ${input.entity}`;
  if (result.changes.length === 0) {
    io.out(`✔ Nothing to change: ${rootFolderOf(model)}autogen/ is up to date with ${schema} (${scope})`);
  } else {
    const summary = `${count('create')} created, ${count('update')} updated, ${count('delete')} deleted`;
    io.out(input.dryRun === true ? `Dry run (${scope}): ${summary} — nothing was written` : `✔ Generated ${scope}: ${summary}`);
  }
  return { ok: true, changes: result.changes, model };
}

function rootFolderOf(model: ServiceModel): string {
  const root = model.rootFolder.replace(/^\.\/?/, '').replace(/\/+$/, '');
  return root === '' ? '' : `${root}/`;
}
