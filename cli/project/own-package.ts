import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface PackageManifest {
  name?: string;
  version?: string;
  type?: string;
  main?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  engines?: Record<string, string>;
}

/** `@svc/nest`'s own package.json (found upwards from this file: `cli/project` or `dist/cli/project`). */
export function readOwnManifest(from: string = __dirname): PackageManifest & { root: string } {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as PackageManifest;
      if (manifest.name === '@svc/nest') return { ...manifest, root: dir };
    }
    if (dirname(dir) === dir) throw new Error(`package.json of @svc/nest not found above ${from}`);
  }
}

/** The project's package.json, or undefined when there is none or it is not JSON. */
export function readProjectManifest(root: string): PackageManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageManifest;
  } catch {
    return undefined;
  }
}
