/**
 * A small Wadler-style document printer with Prettier's semantics for the few constructs the
 * emitters use (groups, indentation, soft and hard lines, `ifBreak`, conditional groups for
 * last-argument hugging). Generated code is printed the way Prettier would print it
 * (`printWidth: 140`, `singleQuote`, `trailingComma: all`), without a Prettier dependency at
 * generation time; a test runs Prettier over the output to keep the two in step.
 */

export type Doc = string | readonly Doc[] | Group | Indent | Line | IfBreak;

interface Group {
  readonly kind: 'group';
  readonly contents: Doc;
  /** Print broken even when it would fit. Also set on every group that contains a hard line. */
  readonly shouldBreak: boolean;
  /** Alternatives tried in order when `contents` (the first) does not fit flat. */
  readonly expandedStates?: readonly Doc[];
}

interface Indent {
  readonly kind: 'indent';
  readonly contents: Doc;
}

interface Line {
  readonly kind: 'line';
  /** A soft line prints nothing when flat; a plain line prints a space. */
  readonly soft: boolean;
  readonly hard: boolean;
}

interface IfBreak {
  readonly kind: 'ifBreak';
  readonly breakContents: Doc;
  readonly flatContents: Doc;
}

export const PRINT_WIDTH = 140;
const INDENT = '  ';

export const line: Line = { kind: 'line', soft: false, hard: false };
export const softline: Line = { kind: 'line', soft: true, hard: false };
export const hardline: Line = { kind: 'line', soft: false, hard: true };

export function group(contents: Doc, shouldBreak = false): Doc {
  return { kind: 'group', contents, shouldBreak: shouldBreak || mustBreak(contents) };
}

/** Prettier's `conditionalGroup`: the first state flat if it fits, else the first expanded state that fits. */
export function conditionalGroup(states: readonly Doc[]): Doc {
  return { kind: 'group', contents: states[0], shouldBreak: false, expandedStates: states };
}

export function indent(contents: Doc): Doc {
  return { kind: 'indent', contents };
}

export function ifBreak(breakContents: Doc, flatContents: Doc = ''): Doc {
  return { kind: 'ifBreak', breakContents, flatContents };
}

export function join(separator: Doc, docs: readonly Doc[]): Doc[] {
  return docs.flatMap((doc, index) => (index === 0 ? [doc] : [separator, doc]));
}

/**
 * Whether a group around `doc` must break, as Prettier's `propagateBreaks` decides: it holds a
 * hard line or a broken group. Conditional groups stop the propagation.
 */
function mustBreak(doc: Doc): boolean {
  if (typeof doc === 'string') return false;
  if (Array.isArray(doc)) return doc.some(mustBreak);
  const node = doc as Group | Indent | Line | IfBreak;
  switch (node.kind) {
    case 'line':
      return node.hard;
    case 'group':
      return node.expandedStates === undefined && node.shouldBreak;
    case 'indent':
      return mustBreak(node.contents);
    case 'ifBreak':
      return mustBreak(node.breakContents) || mustBreak(node.flatContents);
  }
}

type Mode = 'flat' | 'break';
type Command = readonly [indentation: string, mode: Mode, doc: Doc];

/** Whether `next` fits in `width` columns, looking past it into `rest` up to the first line break. */
function fits(next: Command, rest: readonly Command[], width: number, mustBeFlat: boolean): boolean {
  const commands: Command[] = [next];
  let restIndex = rest.length;
  let remaining = width;
  while (remaining >= 0) {
    if (commands.length === 0) {
      if (restIndex === 0) return true;
      commands.push(rest[--restIndex]);
      continue;
    }
    const [indentation, mode, doc] = commands.pop() as Command;
    if (typeof doc === 'string') {
      remaining -= doc.length;
    } else if (Array.isArray(doc)) {
      for (let index = doc.length - 1; index >= 0; index--) commands.push([indentation, mode, doc[index]]);
    } else {
      const node = doc as Group | Indent | Line | IfBreak;
      switch (node.kind) {
        case 'indent':
          commands.push([indentation, mode, node.contents]);
          break;
        case 'group': {
          if (mustBeFlat && node.shouldBreak) return false;
          const groupMode: Mode = node.shouldBreak ? 'break' : mode;
          const contents =
            node.expandedStates !== undefined && groupMode === 'break' ? node.expandedStates[node.expandedStates.length - 1] : node.contents;
          commands.push([indentation, groupMode, contents]);
          break;
        }
        case 'ifBreak':
          commands.push([indentation, mode, mode === 'break' ? node.breakContents : node.flatContents]);
          break;
        case 'line':
          if (mode === 'break' || node.hard) return true;
          if (!node.soft) remaining -= 1;
          break;
      }
    }
  }
  return false;
}

/** Prints `doc` with Prettier's line-fitting rules; trailing spaces are trimmed from every line. */
export function print(doc: Doc, width: number = PRINT_WIDTH): string {
  const out: string[] = [];
  let position = 0;
  const commands: Command[] = [['', 'break', doc]];
  const trimTrailingSpaces = (): void => {
    while (out.length > 0) {
      const last = out[out.length - 1];
      const trimmed = last.replace(/[ \t]+$/, '');
      if (trimmed.length === last.length) return;
      out[out.length - 1] = trimmed;
      if (trimmed.length > 0) return;
      out.pop();
    }
  };
  while (commands.length > 0) {
    const [indentation, mode, current] = commands.pop() as Command;
    if (typeof current === 'string') {
      out.push(current);
      position += current.length;
      continue;
    }
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) commands.push([indentation, mode, current[index]]);
      continue;
    }
    const node = current as Group | Indent | Line | IfBreak;
    switch (node.kind) {
      case 'indent':
        commands.push([indentation + INDENT, mode, node.contents]);
        break;
      case 'ifBreak':
        commands.push([indentation, mode, mode === 'break' ? node.breakContents : node.flatContents]);
        break;
      case 'group': {
        if (mode === 'flat' && !node.shouldBreak) {
          commands.push([indentation, 'flat', node.contents]);
          break;
        }
        const flat: Command = [indentation, 'flat', node.contents];
        if (!node.shouldBreak && fits(flat, commands, width - position, false)) {
          commands.push(flat);
        } else if (node.expandedStates !== undefined) {
          const states = node.expandedStates;
          const mostExpanded = states[states.length - 1];
          let chosen: Command = [indentation, 'break', mostExpanded];
          if (!node.shouldBreak) {
            for (let index = 1; index < states.length; index++) {
              const candidate: Command = [indentation, 'flat', states[index]];
              if (fits(candidate, commands, width - position, false)) {
                chosen = candidate;
                break;
              }
            }
          }
          commands.push(chosen);
        } else {
          commands.push([indentation, 'break', node.contents]);
        }
        break;
      }
      case 'line':
        if (mode === 'flat' && !node.hard) {
          if (!node.soft) {
            out.push(' ');
            position += 1;
          }
          break;
        }
        trimTrailingSpaces();
        out.push('\n' + indentation);
        position = indentation.length;
        break;
    }
  }
  trimTrailingSpaces();
  return out.join('');
}
