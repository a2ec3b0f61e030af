import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Figures a reliability test reports for `npm run test:stress`'s summary (queries tried,
 * mismatches, 500s, ...). Written only when the report script sets RELIABILITY_FIGURES_DIR;
 * under plain `npm test` they go nowhere.
 */
export type Figures = Record<string, number | string>;

export function recordFigures(name: string, figures: Figures): void {
  const dir = process.env.RELIABILITY_FIGURES_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name.replace(/[^A-Za-z0-9_.-]+/g, '_')}.json`), JSON.stringify({ name, ...figures }, null, 2));
}

/** Whether this run is `npm run test:stress` (bigger loops). */
export const STRESS = process.env.RELIABILITY_STRESS === '1';

/** Seed of the random generators: fixed under `npm test` (reproducible), fresh under stress unless given. */
export function reliabilitySeed(fixed: number): number {
  if (process.env.RELIABILITY_SEED) return Number(process.env.RELIABILITY_SEED);
  return STRESS ? (Date.now() ^ (process.pid << 8)) >>> 0 : fixed;
}
