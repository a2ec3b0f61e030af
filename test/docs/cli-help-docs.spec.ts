/** `svc --help` and every command's `--help` end with the section of docs/cli.md that documents it, and that section exists. */
import { COMMANDS } from '../../cli/commands';
import { commandDocsLink } from '../../cli/command-docs';
import { assertBuilt, svc, tempDir } from '../cli/generate.helpers';
import { anchors } from './markdown';

describe('help links to docs/cli.md', () => {
  const sections = anchors('docs/cli.md');
  const paths = COMMANDS.map((command) => command.path);

  it.each(paths.map((path) => [path.join(' '), path] as const))('svc %s: its section exists', (_name, path) => {
    const anchor = commandDocsLink(path).split('#')[1];
    expect({ anchor, exists: sections.has(anchor) }).toEqual({ anchor, exists: true });
  });

  it('is printed by svc --help and by each command --help', () => {
    assertBuilt();
    const cwd = tempDir('help-docs');
    expect(svc(cwd, ['--help']).stdout).toContain('Docs: docs/cli.md (in the @svc/nest package: node_modules/@svc/nest/docs/cli.md)');
    for (const path of paths) {
      const help = svc(cwd, [...path, '--help']);
      expect({ command: path.join(' '), code: help.code, docs: help.stdout.includes(`Docs: ${commandDocsLink(path)} `) }).toEqual({
        command: path.join(' '),
        code: 0,
        docs: true,
      });
    }
    expect(svc(cwd, ['migrate', '--help']).stdout).toContain('Docs: docs/cli.md#svc-migrate ');
  });
});
