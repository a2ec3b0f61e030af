/** `svc --help` as a user reads it: every command is listed with what it does. */
import { rmSync } from 'node:fs';
import { assertBuilt, svc, tempDir } from './generate.helpers';

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = tempDir('help');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('svc --help', () => {
  it('lists every command with a description, svc keys included', () => {
    const run = svc(dir, ['--help']);
    expect(run.code).toBe(0);
    const commands = run.stdout.slice(run.stdout.indexOf('Commands:\n') + 'Commands:\n'.length);
    const entries = commands.split('\n').filter((line) => /^ {2}\S/.test(line));
    expect(entries.map((line) => line.trim().split(/\s/)[0])).toEqual(
      expect.arrayContaining(['login', 'logout', 'whoami', 'schema', 'init', 'generate|g', 'dev', 'migrate', 'keys']),
    );
    for (const line of entries) expect({ line, described: /^ {2}\S+(?: \[[^\]]+\]| <[^>]+>)*\s{2,}\S/.test(line) }).toEqual({ line, described: true });
    expect(run.stdout).toMatch(/\n {2}keys\s+Create, list and revoke service API keys/);
  });
});
