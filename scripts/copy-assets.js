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
