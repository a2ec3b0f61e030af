/**
 * Every key `schemas/svcrc.schema.json` declares reaches the model: for each leaf key, some valid
 * value written in a `.svcrc` changes what `parseSvcrc()` returns. A key the reader or the normalizer
 * forgets fails here, unless it is listed below with the reason it cannot change the model.
 */
import { parseSvcrc, SVCRC_JSON_SCHEMA, type ServiceModel } from '../../lib/schema';

interface SchemaNode {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly items?: SchemaNode;
  readonly definitions?: Readonly<Record<string, SchemaNode>>;
}

const ROOT = SVCRC_JSON_SCHEMA as SchemaNode;

/** Keys that never reach the model, and why. */
const NOT_IN_MODEL: Readonly<Record<string, string>> = {
  $schema: 'only for editors',
};

/** Keys with a single allowed value: the model always holds it, so no value written can change it. */
const SINGLE_VALUE: Readonly<Record<string, string>> = {
  version: '2 is the only version this release reads',
  language: '"typescript" is the only language',
  'auth.provider': '"jwt" is the only provider',
};

/** Values the generic candidates below cannot find (references to other keys). `undefined` removes the key. */
const SAMPLES: Readonly<Record<string, readonly unknown[]>> = {
  'auth.userEntity': [undefined],
  'auth.sessionEntity': [undefined],
  'auth.accountUserEntity': [undefined],
  'entities[].scopeBy': ['organization.id', undefined],
  'entities[].eagerJoins': [['organization']],
  'relationships[].from': ['Membership', 'Organization'],
  'relationships[].to': ['Organization'],
  'api.bodyLimit': ['2mb'],
  'entities[].permissions': [{ manager: { read: true, delete: true }, '*': { read: true } }],
};

/** Keys whose change needs other keys changed with it: the whole edit. */
const EDITS: Readonly<Record<string, (svcrc: Svcrc) => void>> = {
  'auth.organizationField': (svcrc) => {
    (svcrc.auth as Svcrc).organizationField = 'tenantId';
    (svcrc.relationships as Svcrc[])[1].name = 'tenant';
    (svcrc.entities as Svcrc[])[2].scopeBy = 'tenantId';
  },
  'entities[].name': (svcrc) => {
    (svcrc.entities as Svcrc[])[4].name = 'Venture';
    for (const relationship of svcrc.relationships as Svcrc[]) {
      if (relationship.from === 'Project') relationship.from = 'Venture';
    }
  },
};

type Svcrc = Record<string, unknown>;

function resolve(node: SchemaNode): SchemaNode {
  return node.$ref === undefined ? node : resolve(ROOT.definitions?.[node.$ref.split('/').pop() ?? ''] ?? {});
}

/** Every leaf key, as `entities[].fields[].precision`, with its schema node. */
function leafKeys(node: SchemaNode, path = ''): [string, SchemaNode][] {
  return Object.entries(node.properties ?? {}).flatMap(([key, raw]) => {
    const child = resolve(raw);
    const childPath = path === '' ? key : `${path}.${key}`;
    const items = child.items ? resolve(child.items) : undefined;
    if (items?.properties) return leafKeys(items, `${childPath}[]`);
    if (child.properties) return leafKeys(child, childPath);
    return [[childPath, child] as [string, SchemaNode]];
  });
}

/** A valid `.svcrc` with every object that holds a required key, so that each leaf can be changed alone. */
function baseline(): Svcrc {
  return {
    version: 2,
    auth: { userEntity: 'User', sessionEntity: 'Session', accountUserEntity: 'Membership' },
    entities: [
      { name: 'Organization', fields: [{ name: 'name', type: 'text' }] },
      {
        name: 'User',
        fields: [
          { name: 'email', type: 'text', unique: true, is_email: true },
          { name: 'passwordHash', type: 'text', is_password: true },
        ],
      },
      { name: 'Membership', fields: [{ name: 'role', type: 'text' }], scopeBy: 'organizationId' },
      { name: 'Session', fields: [{ name: 'expiresAt', type: 'timestamptz' }] },
      {
        name: 'Project',
        fields: [
          { name: 'title', type: 'text' },
          { name: 'budget', type: 'decimal', precision: 10, scale: 2 },
          { name: 'status', type: 'enum', values: ['open', 'closed'] },
        ],
        scopeBy: 'organizationId',
        softDelete: true,
        bulkWrites: true,
      },
    ],
    relationships: [
      { from: 'Membership', to: 'User', type: 'ManyToOne' },
      { from: 'Membership', to: 'Organization', type: 'ManyToOne' },
      { from: 'User', to: 'Session', type: 'OneToMany' },
      { from: 'Project', to: 'Organization', type: 'ManyToOne' },
      { from: 'Project', to: 'User', type: 'ManyToOne', name: 'owner', inverseName: 'ownedProjects' },
    ],
    api: { cors: { origin: ['https://app.example.com'] }, rateLimit: { ttl: 60, limit: 100 } },
  };
}

/** Which item of a list a leaf key is written in: the Project entity, its fields, its relationship. */
function itemIndex(list: string, key: string): number {
  if (list === 'entities') return 4;
  if (list === 'relationships') return 4;
  return { precision: 1, scale: 1, values: 2 }[key] ?? 0;
}

function withValue(path: string, value: unknown): Svcrc {
  const svcrc = baseline();
  if (typeof value === 'function') {
    (value as (svcrc: Svcrc) => void)(svcrc);
    return svcrc;
  }
  const parts = path.split('.');
  const key = parts[parts.length - 1];
  let target: Record<string, unknown> = svcrc;
  for (const part of parts.slice(0, -1)) {
    const list = part.endsWith('[]') ? part.slice(0, -2) : undefined;
    if (list !== undefined) {
      target = (target[list] as Record<string, unknown>[])[itemIndex(list, key)];
    } else {
      target[part] ??= {};
      target = target[part] as Record<string, unknown>;
    }
  }
  if (value === undefined) delete target[key];
  else target[key] = value;
  return svcrc;
}

/** Values of the key's type worth trying: the other enum values, booleans, integers around the default and bounds. */
function candidates(path: string, node: SchemaNode): readonly unknown[] {
  if (SAMPLES[path]) return SAMPLES[path];
  if (EDITS[path]) return [EDITS[path]];
  if (node.enum) return node.enum;
  const types = node.type === undefined ? [] : typeof node.type === 'string' ? [node.type] : node.type;
  const found: unknown[] = [];
  for (const type of types) {
    if (type === 'boolean') found.push(true, false);
    if (type === 'string') found.push('changed');
    if (type === 'integer') {
      const low = node.minimum ?? 0;
      const high = node.maximum ?? Number.MAX_SAFE_INTEGER;
      const around = typeof node.default === 'number' ? [node.default + 1, node.default - 1] : [];
      found.push(...[...around, low + 2, low + 1, low].filter((value) => value >= low && value <= high));
    }
    if (type === 'array') {
      const items = resolve(node.items ?? {});
      found.push(...(items.enum ? [[items.enum[0]]] : [['changed'], []]));
    }
  }
  return types.length === 0 ? ['changed', 7] : found;
}

function modelOf(svcrc: unknown): ServiceModel | undefined {
  const result = parseSvcrc(JSON.stringify(svcrc));
  return result.ok ? result.model : undefined;
}

const baselineModel = modelOf(baseline());
const leaves = leafKeys(ROOT);

describe('every .svcrc key the JSON Schema declares', () => {
  it('has a valid baseline to change one key at a time', () => {
    expect(baselineModel).toBeDefined();
  });

  it.each(leaves.filter(([path]) => !(path in NOT_IN_MODEL) && !(path in SINGLE_VALUE)))(
    '%s reaches the model',
    (path, node) => {
      const tried = candidates(path, node).map((value) => {
        const model = modelOf(withValue(path, value));
        return { value, valid: model !== undefined, changes: model !== undefined && JSON.stringify(model) !== JSON.stringify(baselineModel) };
      });
      if (!tried.some((attempt) => attempt.valid)) {
        throw new Error(`no value tried for ${path} gives a valid .svcrc: give it one in SAMPLES`);
      }
      expect({ path, reachesModel: tried.some((attempt) => attempt.changes) }).toEqual({ path, reachesModel: true });
    },
  );

  it('lists as exceptions only keys the schema declares, each single-valued one with one allowed value', () => {
    const paths = new Map(leaves);
    for (const path of [...Object.keys(NOT_IN_MODEL), ...Object.keys(SINGLE_VALUE), ...Object.keys(SAMPLES), ...Object.keys(EDITS)]) {
      expect([path, paths.has(path)]).toEqual([path, true]);
    }
    for (const path of Object.keys(SINGLE_VALUE)) {
      const node = paths.get(path)!;
      expect([path, node.const !== undefined || node.enum?.length === 1]).toEqual([path, true]);
    }
  });
});
