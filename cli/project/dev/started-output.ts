/**
 * The compiled output the running application was started from, so that `svc dev` restarts it only
 * when a compilation changed that output.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The hash of every JavaScript file under `dir`, by path. */
function snapshotJs(dir: string, into = new Map<string, string>()): Map<string, string> {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) snapshotJs(path, into);
      else if (/\.[cm]?js$/.test(entry.name)) into.set(path, createHash('sha1').update(readFileSync(path)).digest('hex'));
    }
  } catch {
    // Removed while walking: the next compilation tells.
  }
  return into;
}

export class StartedOutput {
  private startedFrom: Map<string, string> | undefined;
  /**
   * Output files written by the fast emit for the running application: the compiler writes them
   * again in its own words (decorator metadata differs), which is no reason to restart.
   */
  private readonly fastEmitted = new Set<string>();
  /**
   * The fast restart happened while the compiler was running: that run read sources from before the
   * generation and may overwrite the fast emit with their output, so its next result is compared in full.
   */
  private fastEmitRaced = false;

  constructor(private readonly outDir: string) {}

  /** The application starts from the output as it is now; `fastEmit` when after a fast emit. */
  starting(fastEmit: boolean): void {
    if (!fastEmit) this.fastEmitted.clear();
    this.startedFrom = snapshotJs(this.outDir);
  }

  fastEmittedFiles(files: readonly string[], whileCompiling: boolean): void {
    for (const file of files) this.fastEmitted.add(file);
    if (whileCompiling) this.fastEmitRaced = true;
  }

  compilationEnded(): void {
    if (this.fastEmitRaced) {
      this.fastEmitRaced = false;
      this.fastEmitted.clear();
    }
  }

  /** Whether the output differs from the one the application started from (true when it never started). */
  changedSinceStart(): boolean {
    if (this.startedFrom === undefined) return true;
    const now = snapshotJs(this.outDir);
    for (const [path, hash] of now) if (!this.fastEmitted.has(path) && this.startedFrom.get(path) !== hash) return true;
    return false;
  }
}
