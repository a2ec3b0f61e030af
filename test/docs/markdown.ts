/** Reading the project's Markdown: its pages, their fenced code blocks, their links and headings. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** README.md and every page under docs/, as paths relative to the repository. */
export function markdownPages(): string[] {
  const pages = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages.sort();
}

export interface CodeBlock {
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  /** Words after the language: `partial` (not checked), `tour` (run by the getting-started test). */
  readonly flags: readonly string[];
  readonly code: string;
}

export function codeBlocks(page: string): CodeBlock[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j])) body.push(lines[j++].slice(indent));
    blocks.push({ page, line: i + 1, lang: open[2], flags: open[3].split(/\s+/).filter(Boolean), code: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** The text outside fenced code blocks. */
export function prose(page: string): string {
  return readFileSync(join(ROOT, page), 'utf8').replace(/^\s*```[\s\S]*?^\s*```\s*$/gm, '');
}

/** GitHub's anchor for a heading text. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Anchors of a page: its headings (with GitHub's -1, -2 suffixes for repeats) and explicit `<a id>`s. */
export function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(page).split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      const base = slug(heading[1]);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      result.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) result.add(id[1]);
  }
  return result;
}

export function repoPath(path: string): string {
  return relative(ROOT, path);
}
