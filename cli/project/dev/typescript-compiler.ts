/** The project's TypeScript compiler run by `svc dev`: once, or in watch mode with its output read line by line. */
import { createInterface } from 'node:readline';
import type { CliIo } from '../../svc-command';
import type { ChildProcesses } from './child-processes';

const COMPILED = /Found (\d+) errors?\. Watching for file changes\./;
const COMPILING = /Starting (?:incremental )?compilation|File change detected/;

export interface TscCommand {
  /** The compiler's script (`typescript/bin/tsc`). */
  readonly tsc: string;
  /** The tsconfig file. */
  readonly config: string;
}

/** Compiles once, the compiler's output shown as it is; resolves its exit code. */
export function compileOnce(children: ChildProcesses, { tsc, config }: TscCommand, io: CliIo): Promise<number> {
  io.out(`Compiling with tsc -p ${config}...`);
  const compiler = children.spawnNode([tsc, '-p', config, '--pretty', 'false'], process.env, 'inherit');
  return new Promise<number>((resolvePromise) => compiler.on('close', (status) => resolvePromise(status ?? 1)));
}

export interface WatchEvents {
  /** A compilation began (a change was detected). */
  readonly onCompiling: () => void;
  /** A compilation ended, with this many errors. */
  readonly onCompiled: (errors: number) => void;
  /** The compiler exited. */
  readonly onExit: (code: number | null) => void;
}

/** `tsc --watch`, reporting its compilations and errors. */
export class WatchingCompiler {
  private running = true;

  constructor(children: ChildProcesses, { tsc, config }: TscCommand, io: CliIo, events: WatchEvents) {
    io.out(`Compiling with tsc -p ${config} --watch...`);
    const compiler = children.spawnNode([tsc, '-p', config, '--watch', '--preserveWatchOutput', '--pretty', 'false'], process.env, 'pipe');
    const onLine = (line: string): void => {
      const done = COMPILED.exec(line);
      if (done) {
        this.running = false;
        const errors = Number(done[1]);
        if (errors === 0) io.out('✔ Compiled with no errors');
        else io.err(`✖ ${errors} compilation error${errors === 1 ? '' : 's'}: the application was not restarted; fix them and save`);
        events.onCompiled(errors);
      } else if (COMPILING.test(line)) {
        if (!this.running) io.out('↻ Change detected: compiling...');
        this.running = true;
        events.onCompiling();
      } else if (line.trim() !== '') {
        io.err(line);
      }
    };
    createInterface({ input: compiler.stdout! }).on('line', onLine);
    createInterface({ input: compiler.stderr! }).on('line', onLine);
    compiler.on('exit', (code) => events.onExit(code));
  }

  /** Whether a compilation is under way. */
  get compiling(): boolean {
    return this.running;
  }
}
