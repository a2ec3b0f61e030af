import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crudAppModule } from '../apps/crud/src/app.module';
import { type RunningApp, startApp } from '../support/start-app';

const run = promisify(execFile);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The `/_docs` page as a person sees it: rendered by headless Chromium, after Swagger UI has run. */
async function renderedDom(url: string): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
  try {
    const { stdout } = await run(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        '--virtual-time-budget=10000',
        '--dump-dom',
        url,
      ],
      { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
    );
    return stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

describe('the /_docs page in a browser', () => {
  let running: RunningApp;
  let base: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: npm test's pretest (scripts/prepare-test-env.js) installs Debian's chromium as root; or set CHROMIUM_PATH`);
    running = await startApp('pglite', crudAppModule);
    await running.app.listen(0, '127.0.0.1');
    const { port } = running.app.getHttpServer().address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => running?.close());

  it('lists every generated route', async () => {
    const dom = await renderedDom(`${base}/_docs`);
    const listed = new Set([...dom.matchAll(/data-path="([^"]+)"[^>]*>/g)].map((match) => match[1]));
    const methods = [...dom.matchAll(/opblock-summary-method">([A-Z]+)</g)].map((match) => match[1]);
    expect(methods.length).toBeGreaterThanOrEqual(5 * 7);
    for (const route of ['owners', 'projects', 'tasks', 'comments', 'loan-items']) {
      expect(listed).toContain(`/${route}`);
      expect(listed).toContain(`/${route}/bulk`);
      expect(listed).toContain(`/${route}/{id}`);
    }
    expect(listed).toContain('/projects/{id}/recover');
    expect(listed).toContain('/health');
  });
});
