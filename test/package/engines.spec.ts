/**
 * `engines.node` is honest: every package an install of @svc/nest brings (package-lock.json, without
 * development-only ones) accepts the lowest Node.js version it allows, so an install on a supported
 * Node.js prints no "unsupported engine" warning.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// npm's range semantics (the semver package, installed with jest); typed here to need no @types package.
const { minVersion, satisfies } = require('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const ROOT = join(__dirname, '..', '..');

interface LockEntry {
  readonly dev?: boolean;
  readonly engines?: { readonly node?: string } | readonly string[];
}

describe('engines.node', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };

  it.each(['lowest', 'each supported major'])('is accepted by every runtime dependency (%s)', (which) => {
    const range = manifest.engines.node;
    const lowest = minVersion(range)!.version;
    const versions = which === 'lowest' ? [lowest] : range.split('||').map((part) => minVersion(part.trim())!.version);
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const node = Array.isArray(entry.engines) ? undefined : (entry.engines as { node?: string } | undefined)?.node;
      if (path === '' || entry.dev === true || node === undefined) continue;
      for (const version of versions) if (!satisfies(version, node)) refusing.push(`${path.replace(/^.*node_modules\//, '')} wants ${node}, not ${version}`);
    }
    expect(refusing).toEqual([]);
  });
});
