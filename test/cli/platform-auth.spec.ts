import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SVC = join(__dirname, '..', '..', 'dist', 'bin', 'svc.js');

function jwt(payload: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}.c2lnbmF0dXJl`;
}

describe('svc login / whoami / logout', () => {
  let config: string;
  const svc = (args: string[], input?: string) => {
    const result = spawnSync(process.execPath, [SVC, ...args], {
      env: { ...process.env, XDG_CONFIG_HOME: config },
      input,
      encoding: 'utf8',
    });
    return { code: result.status, out: result.stdout, err: result.stderr };
  };

  beforeEach(() => {
    config = mkdtempSync(join(tmpdir(), 'svc-config-'));
  });

  it('records who the token names, never the token, owner-only, and shows it with whoami', () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const token = jwt({ sub: 'user-1', organizationId: 'org-9', exp });
    const login = svc(['login', '--token', token]);
    expect(login).toMatchObject({ code: 0, out: expect.stringContaining('Logged in as user-1. Saved who you are (not the token)') });
    const file = join(config, 'svc', 'credentials.json');
    const stored = readFileSync(file, 'utf8');
    expect(stored).not.toContain(token.split('.')[1]);
    expect(JSON.parse(stored)).toEqual({
      subject: 'user-1',
      organizationId: 'org-9',
      expiresAt: new Date(exp * 1000).toISOString(),
      savedAt: expect.any(String),
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(config, 'svc')).mode & 0o777).toBe(0o700);
    const whoami = svc(['whoami']);
    expect(whoami.code).toBe(0);
    expect(whoami.out).toContain('Subject:      user-1');
    expect(whoami.out).toContain('Organization: org-9');
    expect(whoami.out).toContain(new Date(exp * 1000).toISOString());
    expect(JSON.parse(svc(['whoami', '--json']).out)).toEqual({
      subject: 'user-1',
      organizationId: 'org-9',
      expiresAt: new Date(exp * 1000).toISOString(),
      expired: false,
    });
  });

  it('reads the token from standard input', () => {
    expect(svc(['login'], `${jwt({ sub: 'piped' })}\n`).code).toBe(0);
    expect(svc(['whoami']).out).toContain('Subject:      piped');
  });

  it('refuses text that is not a token, and an expired token', () => {
    expect(svc(['login', '--token', 'not a token'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('not a platform access token'),
    });
    expect(svc(['login', '--token', jwt({ sub: 'x', exp: 1000 })])).toMatchObject({ code: 1, err: expect.stringContaining('expired') });
    expect(svc(['login'], '')).toMatchObject({ code: 1, err: expect.stringContaining('No token given') });
  });

  it('says when the stored credential has expired', async () => {
    const exp = Math.floor(Date.now() / 1000) + 10;
    expect(svc(['login', '--token', jwt({ sub: 'soon', exp })]).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, exp * 1000 - Date.now()) + 200));
    expect(svc(['whoami'])).toMatchObject({ code: 1, out: expect.stringContaining('expired') });
  });

  it('logs out, after which whoami fails', () => {
    svc(['login', '--token', jwt({ sub: 'bye' })]);
    expect(svc(['logout'])).toMatchObject({ code: 0, out: expect.stringContaining('Logged out') });
    expect(svc(['whoami'])).toMatchObject({ code: 1, err: expect.stringContaining('Not logged in') });
    expect(svc(['logout'])).toMatchObject({ code: 0, out: expect.stringContaining('Not logged in') });
  });

  it('removes the token from a file written by an earlier version, keeping who it names', () => {
    const token = jwt({ sub: 'legacy', organizationId: 'org-1' });
    mkdirSync(join(config, 'svc'), { recursive: true });
    const file = join(config, 'svc', 'credentials.json');
    writeFileSync(file, JSON.stringify({ token, savedAt: '2026-01-01T00:00:00.000Z' }));
    expect(svc(['whoami']).out).toContain('Subject:      legacy');
    expect(readFileSync(file, 'utf8')).not.toContain(token.split('.')[1]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      subject: 'legacy',
      organizationId: 'org-1',
      expiresAt: null,
      savedAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('makes svc init refuse an expired login', async () => {
    // Long enough for `svc login` to start and accept it on a loaded machine (2 s was not).
    const exp = Math.floor(Date.now() / 1000) + 10;
    expect(svc(['login', '--token', jwt({ sub: 'soon', exp })]).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, exp * 1000 - Date.now()) + 200));
    const init = spawnSync(process.execPath, [SVC, 'init', 'demo', '--skip-install'], {
      cwd: config,
      env: { ...process.env, XDG_CONFIG_HOME: config },
      encoding: 'utf8',
    });
    expect(init.status).toBe(1);
    expect(init.stderr).toContain(`your platform login expired on ${new Date(exp * 1000).toISOString()}: run \`svc login\` again`);
  });

  it('documents each command in --help, and what login stores', () => {
    expect(svc(['--help']).out).toEqual(expect.stringContaining('login'));
    const help = svc(['login', '--help']).out;
    expect(help).toContain('--token <token>');
    expect(help).toContain('never the token');
    expect(help).toContain('svc init requires this login');
  });
});
