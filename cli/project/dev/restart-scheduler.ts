/** When `svc dev` restarts the application after a compilation: once per change, after things settle. */

/**
 * How long a successful compilation must stay the last one before the application restarts: the
 * generator writes several files, which tsc may pick up in more than one compilation.
 */
const SETTLE_MS = 300;

export class RestartScheduler {
  /** A restart waiting for the compiler and the generator to settle (one restart per change). */
  private timer: NodeJS.Timeout | undefined;
  private generating = false;
  private wanted = false;

  /** `restart` is called once things have settled. */
  constructor(private readonly restart: () => void) {}

  /** Restarts once the compiler has been quiet for `SETTLE_MS` and no generation is running. */
  request(): void {
    this.wanted = true;
    if (!this.generating) this.schedule();
  }

  /** The compiler started again: the output waited for is not the last. */
  cancelPending(): void {
    clearTimeout(this.timer);
  }

  generationStarted(): void {
    this.generating = true;
  }

  generationEnded(): void {
    this.generating = false;
    if (this.wanted) this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.generating || !this.wanted) return;
      this.wanted = false;
      this.restart();
    }, SETTLE_MS);
  }
}
