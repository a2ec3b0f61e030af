/**
 * The README's curl examples against the sample, run as printed: every `bash sample` block, in the README's order,
 * in one bash session against sample/01-lending-library (what `npm run start:sample` serves), with only the port
 * changed. curl runs with `--fail-with-body` (from a `.curlrc`) and bash with `-e -o pipefail`, so any answer of
 * 400 or more, or a command that fails, fails the test.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { DATABASE_KINDS } from '../support/databases';
import { type RunningSample, startSample } from '../support/sample-app';
import { codeBlocks } from './markdown';

const SAMPLE_PORT = 'localhost:3100';

function sampleBlocks(): string[] {
  return codeBlocks('README.md')
    .filter((block) => block.lang === 'bash' && block.flags.includes('sample'))
    .map((block) => block.code);
}

function runBash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

describe('README examples against the sample', () => {
  it('has the blocks: the first requests, large-table reads and safe writes', () => {
    const blocks = sampleBlocks();
    expect(blocks).toHaveLength(3);
    expect(blocks.join('\n')).toMatch(
      /count=none[\s\S]*cursor=[\s\S]*If-Match[\s\S]*Idempotency-Key[\s\S]*onConflict=[\s\S]*-X PATCH 'localhost:3100\/book-copies\?filter=/,
    );
  });

  describe.each(DATABASE_KINDS)('on %s', (kind) => {
    let sample: RunningSample;
    let work: string;

    beforeAll(async () => {
      sample = await startSample(kind, { listen: true });
      work = mkdtempSync(join(tmpdir(), 'svc-readme-sample-'));
      writeFileSync(join(work, '.curlrc'), '--fail-with-body\n--max-time 30\n');
    }, 180_000);
    afterAll(async () => {
      await sample?.close();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('runs every command as printed, each answer below 400', async () => {
      const port = (sample.app.getHttpServer().address() as AddressInfo).port;
      const script = sampleBlocks().join('\n').replaceAll(SAMPLE_PORT, `localhost:${port}`);
      const { status, output } = await runBash(script, work, { PATH: process.env.PATH, HOME: work, CURL_HOME: work });
      expect({ status, output }).toEqual({ status: 0, output: expect.any(String) });
      // The cursor continues after Dune with Dune Messiah; the conditional PATCH wins; the by-filter PATCH changes both copies.
      expect(output).toMatch(/X-Next-Cursor: \S+/i);
      expect(output).toMatch(/"data":\[\{"id":2,"title":"Dune Messiah"/);
      expect(output).toMatch(/HTTP\/1\.1 200 OK[\s\S]*"city":"PARIS"/);
      expect(output).toContain('{"affected":2}');
    }, 180_000);
  });
});
