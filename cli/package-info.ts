import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE_NAME = '@svc/nest';

/**
 * The version in `@svc/nest`'s package.json. Found by walking up from this file, because the
 * compiled CLI (`dist/cli`) and the sources (`cli/`) sit at different depths.
 */
export function readPackageVersion(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === PACKAGE_NAME && manifest.version) return manifest.version;
    }
    if (dirname(dir) === dir) return '0.0.0';
  }
}
