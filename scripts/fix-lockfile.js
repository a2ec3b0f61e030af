// Restores package-lock.json entries for platform-specific optional packages (other OSes' builds
// of @swc/core, unrs-resolver...). Registries that carry only this platform's builds make npm leave
// them out, and `npm ci` then refuses the lock as out of sync. Idempotent; run after `npm install`.
const fs = require('node:fs');
const path = require('node:path');

const PLATFORMS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'sunos', 'aix', 'netbsd', 'openbsd'];
const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;
let added = 0;

for (const [location, entry] of Object.entries(packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location}/node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) continue;
    const words = name.split('/').pop().split('-');
    const at = words.findIndex((word) => PLATFORMS.includes(word));
    packages[hoisted] = {
      version: spec.replace(/^[\^~=]/, ''),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(at >= 0 ? { os: [words[at]] } : {}),
      ...(at >= 0 && words[at + 1] ? { cpu: [words[at + 1]] } : {}),
    };
    added++;
  }
}

if (added > 0) fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`fix-lockfile: ${added} platform-specific optional package entr${added === 1 ? 'y' : 'ies'} restored`);
