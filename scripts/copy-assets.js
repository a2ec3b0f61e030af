// Copies what tsc does not emit (schematic templates and schemas) next to the compiled schematics.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

function copyTree(from, to) {
  fs.cpSync(from, to, { recursive: true });
}

const schematicsDir = path.join(root, 'schematics');
if (fs.existsSync(schematicsDir)) {
  for (const entry of fs.readdirSync(schematicsDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const source = path.join(schematicsDir, entry.name);
    const target = path.join(root, 'dist', 'schematics', entry.name);
    for (const asset of fs.readdirSync(source, { withFileTypes: true })) {
      if (asset.name === 'files' || asset.name.endsWith('.json')) {
        copyTree(path.join(source, asset.name), path.join(target, asset.name));
      }
    }
  }
}
const binFile = path.join(root, 'dist', 'bin', 'svc.js');
if (fs.existsSync(binFile)) fs.chmodSync(binFile, 0o755);

// The collection `svc` runs itself: the same schematics without `extends`, so that svc generate, svc dev
// and svc init work without @nestjs/schematics (an optional peer, needed only by `nest g`, where the Nest
// CLI brings it). Paths are relative to dist/schematics/.
const collection = JSON.parse(fs.readFileSync(path.join(root, 'collection.json'), 'utf8'));
const standalone = { schematics: {} };
for (const [name, entry] of Object.entries(collection.schematics)) {
  standalone.schematics[name] = {
    ...entry,
    factory: entry.factory.replace('./dist/schematics/', './'),
    schema: entry.schema.replace('./dist/schematics/', './'),
  };
}
fs.writeFileSync(path.join(root, 'dist', 'schematics', 'collection.json'), `${JSON.stringify(standalone, null, 2)}\n`);
