/**
 * collection.json and the schematics' option files agree with each other and with the sources:
 * every factory exists and exports `main`, every schema is closed, and every default of a
 * `schema.json` is the `@default` of its `.schema.d.ts`.
 */
// ora (reached through @angular-devkit/schematics' package-manager task) is an ECMAScript module
// jest cannot load here; no test installs packages.
jest.mock('ora', () => ({ __esModule: true, default: () => ({}) }));

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { readCollection, REPO_ROOT } from './helpers';

interface JsonSchema {
  additionalProperties?: boolean;
  properties: Record<string, { type?: string; default?: unknown; description?: string }>;
}

const collection = readCollection();
const entries = Object.entries(collection.schematics);
const packageJson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { schematics?: string; files?: string[] };

/** Properties of the exported interface of a `.d.ts`: optional or not, and their JSDoc `@default`. */
function interfaceProperties(file: string): Map<string, { optional: boolean; defaultValue?: unknown }> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const result = new Map<string, { optional: boolean; defaultValue?: unknown }>();
  const declaration = source.statements.find(ts.isInterfaceDeclaration);
  if (declaration === undefined) throw new Error(`${file} declares no interface`);
  for (const member of declaration.members) {
    if (!ts.isPropertySignature(member)) continue;
    const tag = ts.getJSDocTags(member).find((candidate) => candidate.tagName.text === 'default');
    const comment = typeof tag?.comment === 'string' ? tag.comment.trim() : undefined;
    result.set(member.name.getText(source), {
      optional: member.questionToken !== undefined,
      ...(comment !== undefined ? { defaultValue: JSON.parse(comment) } : {}),
    });
  }
  return result;
}

describe('collection.json', () => {
  it('is the package.json "schematics" collection, shipped, and extends @nestjs/schematics', () => {
    expect(packageJson.schematics).toBe('./collection.json');
    expect(packageJson.files).toContain('collection.json');
    expect(collection.extends).toEqual(['@nestjs/schematics']);
  });

  it('names resource (alias svc-resource) and nest-add (what nest add runs)', () => {
    expect(Object.keys(collection.schematics).sort()).toEqual(['nest-add', 'resource']);
    expect(collection.schematics.resource.aliases).toEqual(['svc-resource']);
  });

  describe.each(entries)('%s', (name, entry) => {
    it('points into dist/schematics/<name>/ where the build puts the factory and copies the schema', () => {
      expect(entry.factory).toBe(`./dist/schematics/${name}/${name}.factory#main`);
      expect(entry.schema).toBe(`./dist/schematics/${name}/schema.json`);
      expect(entry.description).toEqual(expect.any(String));
    });

    it('has a factory exporting main', () => {
      const source = join(REPO_ROOT, 'schematics', name, `${name}.factory.ts`);
      expect(existsSync(source)).toBe(true);
      const factory = require(source) as { main?: unknown };
      expect(typeof factory.main).toBe('function');
      const built = join(REPO_ROOT, 'dist', 'schematics', name);
      if (existsSync(join(REPO_ROOT, 'dist', 'schematics'))) {
        expect(existsSync(join(built, `${name}.factory.js`))).toBe(true);
        expect(existsSync(join(built, 'schema.json'))).toBe(true);
      }
    });

    it('has a closed schema.json whose options and defaults match its .schema.d.ts', () => {
      const schema = JSON.parse(readFileSync(join(REPO_ROOT, 'schematics', name, 'schema.json'), 'utf8')) as JsonSchema;
      expect(schema.additionalProperties).toBe(false);
      const declared = interfaceProperties(join(REPO_ROOT, 'schematics', name, `${name}.schema.d.ts`));
      expect([...declared.keys()].sort()).toEqual(Object.keys(schema.properties).sort());
      for (const [option, property] of Object.entries(schema.properties)) {
        expect({ option, description: typeof property.description }).toEqual({ option, description: 'string' });
        expect({ option, default: declared.get(option)?.defaultValue }).toEqual({ option, default: property.default });
        expect({ option, optional: declared.get(option)?.optional }).toEqual({ option, optional: true });
      }
    });
  });

  it('accepts every option nest g passes to a schematic (nest g rejects nothing, the schema would)', () => {
    const schema = JSON.parse(readFileSync(join(REPO_ROOT, 'schematics', 'resource', 'schema.json'), 'utf8')) as JsonSchema;
    for (const option of ['name', 'path', 'collection', 'project', 'skipImport', 'type', 'crud', 'language', 'sourceRoot', 'spec', 'flat', 'specFileSuffix', 'format']) {
      expect(schema.properties[option]).toBeDefined();
    }
  });

  it('accepts what nest add passes to nest-add', () => {
    const schema = JSON.parse(readFileSync(join(REPO_ROOT, 'schematics', 'nest-add', 'schema.json'), 'utf8')) as JsonSchema;
    expect(Object.keys(schema.properties).sort()).toEqual(['project', 'setCollection', 'skipInstall', 'sourceRoot']);
    expect(schema.properties.setCollection.default).toBe(true);
  });
});
