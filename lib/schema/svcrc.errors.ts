import type { ServiceModel } from './model';

/**
 * One thing wrong with a `.svcrc`.
 * `path` locates it: `entities[2].fields[0].type`, `relationships[1].to`, `auth.userEntity`, or `''` for the whole file.
 */
export interface SvcrcProblem {
  readonly path: string;
  readonly message: string;
}

/** Outcome of reading a `.svcrc`: the normalized model, or every problem found. */
export type SvcrcResult =
  | { readonly ok: true; readonly model: ServiceModel }
  | { readonly ok: false; readonly problems: readonly SvcrcProblem[] };

/** Renders a problem path for people: the root is shown as `(root)`. */
export function formatProblemPath(path: string): string {
  return path === '' ? '(root)' : path;
}

/** Thrown by `loadSvcrcOrThrow()`; the message lists every problem. */
export class SvcrcError extends Error {
  override readonly name = 'SvcrcError';

  constructor(
    readonly problems: readonly SvcrcProblem[],
    readonly file?: string,
  ) {
    super(
      `${file ?? '.svcrc'} is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n` +
        problems.map((problem) => `  - ${formatProblemPath(problem.path)}: ${problem.message}`).join('\n'),
    );
  }
}
