/** What `svc dev` does when the application stops by itself (fails to start, crashes or exits). */

export interface AppStopOutcome {
  readonly message: string;
  /** svc dev's exit code when it stops too; undefined when it waits for a change to restart the application. */
  readonly exitCode?: number;
}

/** Whether a person runs svc dev (stdin and stdout are a terminal), who can fix the cause and save. */
export function inTerminal(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

export function whenAppStopped(code: number | null, signal: NodeJS.Signals | null, watch: boolean): AppStopOutcome {
  const how = signal ? `signal ${signal}` : `exit code ${code}`;
  if (!watch) return { message: `The application stopped (${how})`, exitCode: code ?? 1 };
  // No one to make the change it would wait for: a script must not hang.
  if (!inTerminal()) return { message: `✖ The application stopped (${how}); no terminal, so svc dev stops too`, exitCode: code ?? 1 };
  return { message: `✖ The application stopped (${how}); waiting for a change to restart it` };
}
