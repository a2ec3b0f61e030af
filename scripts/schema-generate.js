#!/usr/bin/env node
// Writes lib/schema/generated/svcrc.generated.ts from schemas/svcrc.schema.json, the one description of `.svcrc`:
// the input types (SvcrcV2...), the lenient reader's types (Raw...) and the defaults (SVCRC_DEFAULTS).
// `npm run schema:generate` writes it; `--check` fails when the committed file differs (test/schema/svcrc-generated.spec.ts
// runs the same comparison).
const fs = require('node:fs');
const path = require('node:path');
const { compile } = require('json-schema-to-typescript');
const prettier = require('prettier');

const root = path.join(__dirname, '..');
const SCHEMA_FILE = path.join(root, 'schemas', 'svcrc.schema.json');
const GENERATED_FILE = path.join(root, 'lib', 'schema', 'generated', 'svcrc.generated.ts');
const STYLE = { parser: 'typescript', singleQuote: true, printWidth: 120, trailingComma: 'all' };

const HEADER = `// Generated from schemas/svcrc.schema.json by \`npm run schema:generate\`: do not edit.
// To add or change a key, edit the schema and run the script (docs/engineering/adding-a-key.md).

/** A JSON value: what a field's \`default\` may hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
`;

/** Names of the schema's definitions in each family of types. */
const NAMES = {
  input: { root: 'SvcrcV2', entity: 'SvcrcV2Entity', field: 'SvcrcV2Field', relationship: 'SvcrcV2Relationship', auth: 'SvcrcV2Auth', api: 'SvcrcV2Api', database: 'SvcrcV2Database', rolePermissions: 'SvcrcV2RolePermissions' },
  raw: { root: 'RawSvcrc', entity: 'RawEntity', field: 'RawField', relationship: 'RawRelationship', auth: 'RawAuth', api: 'RawApi', database: 'RawDatabase', rolePermissions: 'RawRolePermissions' },
};

/**
 * Lists the lenient reader always returns, even when the file omits them or gives something else
 * (`readRawSvcrc()` reads them as empty), so checks can iterate them. Paths as `schemaNodes()` names them.
 */
const ALWAYS_READ_LISTS = ['relationships', 'entities[].fields'];

function clone(value) {
  return JSON.parse(JSON.stringify(value));
}

/** Every object node of the schema with its dotted path (`entities[].fields[]`), `$ref`s followed once. */
function visitObjects(schema, visit) {
  const seen = new Set();
  const walk = (node, nodePath) => {
    if (node.$ref) {
      const name = node.$ref.split('/').pop();
      if (seen.has(name)) return;
      seen.add(name);
      walk(schema.definitions[name], nodePath);
      return;
    }
    if (node.properties) visit(node, nodePath);
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const childPath = nodePath ? `${nodePath}.${key}` : key;
      if (child.items) walk(child.items, `${childPath}[]`);
      else walk(child, childPath);
    }
  };
  walk(schema, '');
}

/** The schema as json-schema-to-typescript should see it for one family of types. */
function namedSchema(schema, names, lenient) {
  const copy = clone(schema);
  copy.title = names.root;
  for (const [definition, name] of Object.entries(names)) {
    if (definition !== 'root') copy.definitions[definition].title = name;
  }
  copy.definitions.field.properties.default.tsType = 'JsonValue';
  if (lenient) {
    // As read, before checks: any key may be missing, and `version` may be any integer.
    visitObjects(copy, (node) => delete node.required);
    delete copy.properties.version.const;
    visitObjects(copy, (node, nodePath) => {
      const always = ALWAYS_READ_LISTS.filter((list) => list.startsWith(nodePath ? `${nodePath}.` : ''))
        .map((list) => list.slice(nodePath ? nodePath.length + 1 : 0))
        .filter((key) => !key.includes('.'));
      if (always.length > 0) node.required = always;
    });
  }
  return copy;
}

/** Every property and every array readonly: the types describe values read, never written. */
function readonlyTypes(text) {
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*(\/\*\*|\*)/.test(line)) return line;
      return line
        .replace(/^(\s*)([A-Za-z_$][\w$]*\??:)/, '$1readonly $2')
        .replace(/(\([^()]*\)|[A-Za-z_$][\w$]*)\[\]/g, 'readonly $1[]');
    })
    .join('\n');
}

/** The `default` of every key that has one, nested as the file nests them (array items under the array's key). */
function defaultsOf(schema) {
  const resolve = (node) => (node.$ref ? schema.definitions[node.$ref.split('/').pop()] : node);
  const collect = (node) => {
    const result = {};
    for (const [key, raw] of Object.entries(node.properties ?? {})) {
      const child = resolve(raw);
      const object = child.items ? resolve(child.items) : child;
      if (object.properties) {
        const nested = collect(object);
        if (Object.keys(nested).length > 0) result[key] = nested;
      } else if (child.default !== undefined) {
        result[key] = child.default;
      }
    }
    return result;
  };
  return collect(schema);
}

const DEFAULTS_DOC = `/**
 * The \`default\` of every \`.svcrc\` key that has one, nested as in the file; the items of a list (\`entities\`,
 * \`fields\`, \`relationships\`) under the list's key. Defaults that depend on other keys (\`api.concurrency.perCredential\`,
 * \`relationships[].onDelete\`...) are computed by \`normalizeSvcrc()\`.
 */`;

/** The text of lib/schema/generated/svcrc.generated.ts for `schema`. */
async function renderSvcrcGenerated(schema) {
  const options = {
    bannerComment: '',
    additionalProperties: false,
    unknownAny: true,
    ignoreMinAndMaxItems: true,
    format: false,
  };
  const input = await compile(namedSchema(schema, NAMES.input, false), NAMES.input.root, options);
  const raw = await compile(namedSchema(schema, NAMES.raw, true), NAMES.raw.root, options);
  const defaults = `${DEFAULTS_DOC}\nexport const SVCRC_DEFAULTS = ${JSON.stringify(defaultsOf(schema), null, 2)} as const;\n`;
  const text = [
    HEADER,
    '// The .svcrc as written and checked: the type of `svcSchema` in generated apps.',
    readonlyTypes(input),
    '// The .svcrc as the lenient reader returns it (readRawSvcrc()): every key optional, values of the wrong type dropped.',
    readonlyTypes(raw),
    defaults,
  ].join('\n');
  return prettier.format(text, STYLE);
}

async function main() {
  const schema = JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8'));
  const generated = await renderSvcrcGenerated(schema);
  const relative = path.relative(root, GENERATED_FILE);
  const current = fs.existsSync(GENERATED_FILE) ? fs.readFileSync(GENERATED_FILE, 'utf8') : '';
  if (current === generated) {
    console.log(`${relative}: up to date`);
  } else if (process.argv.includes('--check')) {
    console.error(`${relative} is out of date with schemas/svcrc.schema.json; run: npm run schema:generate`);
    process.exitCode = 1;
  } else {
    fs.mkdirSync(path.dirname(GENERATED_FILE), { recursive: true });
    fs.writeFileSync(GENERATED_FILE, generated);
    console.log(`${relative}: written`);
  }
}

module.exports = { renderSvcrcGenerated, SCHEMA_FILE, GENERATED_FILE, ALWAYS_READ_LISTS };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
