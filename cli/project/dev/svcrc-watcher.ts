/** Watches the project's `.svcrc` for `svc dev`, reporting each change of its content once. */
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export const SVCRC = '.svcrc';
/** Editors write in several steps (truncate, write, rename): a change is read once this long has passed without another. */
const SETTLE_MS = 150;

export class SvcrcWatcher {
  /** The content last seen: the one read at creation, before the first generation. */
  private last: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private watcher: FSWatcher | undefined;

  constructor(private readonly root: string) {
    this.last = this.read();
  }

  /** Calls `onChange` whenever the content differs from the last seen (a missing file is no change). */
  start(onChange: () => void): void {
    this.watcher = watch(this.root, (_event, filename) => {
      if (filename === SVCRC) this.onEvent(onChange);
    });
  }

  close(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
  }

  private onEvent(onChange: () => void): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const text = this.read();
      if (text === undefined || text === this.last) return;
      this.last = text;
      onChange();
    }, SETTLE_MS);
  }

  private read(): string | undefined {
    try {
      return readFileSync(join(this.root, SVCRC), 'utf8');
    } catch {
      return undefined;
    }
  }
}
