/** `npm pack` of this repository, as the registry would publish it. */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cleanEnv, ROOT } from '../cli/generate.helpers';

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env: cleanEnv(), encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Files a usable package must contain. */
const PACKED_FILES = [
  'package/dist/bin/svc.js',
  'package/dist/lib/index.js',
  'package/dist/lib/testing/index.js',
  'package/dist/schematics/nest-add/nest-add.factory.js',
  'package/dist/schematics/resource/resource.factory.js',
  'package/collection.json',
  'package/schemas/svcrc.schema.json',
];

/**
 * `npm pack` of the repository. `npm run build` empties dist/ first, so a pack made while a build
 * runs (in a shared checkout) misses files: check the tarball and pack again after a pause.
 */
export async function packRepository(destination: string): Promise<string> {
  let missing: string[] = [];
  for (let attempt = 0; attempt < 6; attempt++) {
    const packed = run('npm', ['pack', '--pack-destination', destination], ROOT).trim().split('\n');
    const file = join(destination, packed[packed.length - 1]);
    const listing = new Set(run('tar', ['-tzf', file], destination).split('\n'));
    missing = PACKED_FILES.filter((path) => !listing.has(path));
    if (missing.length === 0) return file;
    rmSync(file);
    await sleep(10_000);
  }
  throw new Error(`npm pack keeps missing ${missing.join(', ')}: run npm run build`);
}

