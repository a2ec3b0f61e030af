/** Every link between the README and the docs/ pages leads to a file that exists, and to a heading that exists. */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { anchors, markdownPages, prose, ROOT } from './markdown';

interface Link {
  readonly page: string;
  readonly target: string;
}

function links(page: string): Link[] {
  const text = prose(page).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => ({ page, target: match[1] }));
}

function problem({ page, target }: Link): string | undefined {
  if (/^[a-z]+:/i.test(target)) return undefined; // https:, mailto:
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const file = path === '' ? page : normalize(join(dirname(page), path));
  if (!existsSync(join(ROOT, file))) return `${page}: link to ${target}: ${file} does not exist`;
  if (statSync(join(ROOT, file)).isDirectory()) {
    return existsSync(join(ROOT, file, 'README.md')) ? undefined : `${page}: link to folder ${target} without a README.md`;
  }
  if (anchor === undefined || !file.endsWith('.md')) return undefined;
  return anchors(file).has(anchor) ? undefined : `${page}: link to ${target}: ${file} has no heading #${anchor}`;
}

describe('links between the README and docs/', () => {
  const pages = markdownPages();

  it('finds the pages and their links', () => {
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/getting-started.md', 'docs/svcrc.md', 'docs/cli.md']));
    expect(pages.flatMap(links).length).toBeGreaterThan(50);
  });

  it('all lead to an existing file and heading', () => {
    expect(pages.flatMap(links).map(problem).filter(Boolean)).toEqual([]);
  });

  it('reach every page from the README, directly or through another page', () => {
    const reached = new Set(['README.md']);
    const queue = ['README.md'];
    while (queue.length > 0) {
      const page = queue.shift()!;
      for (const { target } of links(page)) {
        const path = target.split('#')[0];
        if (path === '' || /^[a-z]+:/i.test(path)) continue;
        let file = normalize(join(dirname(page), path));
        if (existsSync(join(ROOT, file)) && statSync(join(ROOT, file)).isDirectory()) file = join(file, 'README.md');
        if (file.endsWith('.md') && !reached.has(file) && existsSync(join(ROOT, file))) {
          reached.add(file);
          queue.push(file);
        }
      }
    }
    expect(pages.filter((page) => !reached.has(page))).toEqual([]);
  });
});
