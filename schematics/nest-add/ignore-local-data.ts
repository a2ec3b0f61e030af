import type { Rule } from '@angular-devkit/schematics';

/** What `.svc/` holds: PGlite data of `svc dev` and `svc migrate`, never to be committed. */
const ENTRY = '.svc/';
const COMMENT = '# Local databases of @svc/nest (svc dev: .svc/data, svc migrate: .svc/migrated)';

/** Adds `.svc/` to `.gitignore` (creating it) unless an equivalent line is there, as `svc init` does. */
export function ignoreLocalData(): Rule {
  return (tree) => {
    const before = tree.read('.gitignore')?.toString('utf8');
    const lines = (before ?? '').split(/\r?\n/).map((line) => line.trim());
    if (['.svc', '.svc/', '/.svc', '/.svc/'].some((entry) => lines.includes(entry))) return;
    const block = `${COMMENT}\n${ENTRY}\n`;
    if (before === undefined) tree.create('.gitignore', block);
    else tree.overwrite('.gitignore', `${before}${before === '' || before.endsWith('\n') ? '' : '\n'}${block}`);
  };
}
