/**
 * The reliability app (`test/apps/reliability/.svcrc`) described by hand, for the oracle.
 * Written from the `.svcrc` and the README's column rules, not read from lib's model:
 * the oracle must not share the code it checks.
 */
export type FieldType = 'integer' | 'text' | 'decimal' | 'boolean' | 'enum' | 'timestamptz' | 'json';

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  readonly nullable: boolean;
  /** Enum values, in declaration order (PostgreSQL sorts enums in that order). */
  readonly values?: readonly string[];
  /** Decimal digits after the point: answers always carry exactly this many. */
  readonly scale?: number;
  /** Set by the database (`id`, `created_at`, `deleted_at`), never sent in bodies. */
  readonly generated?: boolean;
}

export interface RelationSpec {
  readonly name: string;
  readonly target: EntityName;
  /** `one`: many-to-one, the foreign key `fk` is on this entity; `many`: one-to-many, `fk` is on the target. */
  readonly kind: 'one' | 'many';
  readonly fk: string;
}

export type EntityName = 'Org' | 'Team' | 'Item' | 'Part' | 'Ledger';

export interface EntitySpec {
  readonly name: EntityName;
  readonly route: string;
  readonly table: string;
  /** Visible columns in README order: id, fields, foreign keys, created_at, updated_at, deleted_at. */
  readonly columns: readonly FieldSpec[];
  readonly relations: readonly RelationSpec[];
  readonly softDelete: boolean;
}

const id: FieldSpec = { name: 'id', type: 'integer', nullable: false, generated: true };
const deletedAt: FieldSpec = { name: 'deleted_at', type: 'timestamptz', nullable: true, generated: true };

export const ENTITIES: Readonly<Record<EntityName, EntitySpec>> = {
  Org: {
    name: 'Org',
    route: 'orgs',
    table: 'orgs',
    softDelete: false,
    columns: [id, { name: 'name', type: 'text', nullable: false }, { name: 'country', type: 'text', nullable: true }],
    relations: [{ name: 'teams', target: 'Team', kind: 'many', fk: 'orgId' }],
  },
  Team: {
    name: 'Team',
    route: 'teams',
    table: 'teams',
    softDelete: true,
    columns: [
      id,
      { name: 'name', type: 'text', nullable: false },
      { name: 'tier', type: 'enum', nullable: false, values: ['gold', 'silver', 'bronze'] },
      { name: 'score', type: 'integer', nullable: true },
      { name: 'orgId', type: 'integer', nullable: true },
      deletedAt,
    ],
    relations: [
      { name: 'org', target: 'Org', kind: 'one', fk: 'orgId' },
      { name: 'items', target: 'Item', kind: 'many', fk: 'teamId' },
    ],
  },
  Item: {
    name: 'Item',
    route: 'items',
    table: 'items',
    softDelete: false,
    columns: [
      id,
      { name: 'title', type: 'text', nullable: false },
      { name: 'note', type: 'text', nullable: true },
      { name: 'qty', type: 'integer', nullable: false },
      { name: 'rank', type: 'integer', nullable: true },
      { name: 'price', type: 'decimal', nullable: true, scale: 2 },
      { name: 'weight', type: 'decimal', nullable: false, scale: 3 },
      { name: 'active', type: 'boolean', nullable: false },
      { name: 'flag', type: 'boolean', nullable: true },
      { name: 'kind', type: 'enum', nullable: false, values: ['alpha', 'beta', 'gamma'] },
      { name: 'mood', type: 'enum', nullable: true, values: ['happy', 'sad', 'Meh'] },
      { name: 'startsAt', type: 'timestamptz', nullable: false },
      { name: 'endsAt', type: 'timestamptz', nullable: true },
      { name: 'data', type: 'json', nullable: true },
      { name: 'teamId', type: 'integer', nullable: true },
      { name: 'created_at', type: 'timestamptz', nullable: false, generated: true },
    ],
    relations: [
      { name: 'team', target: 'Team', kind: 'one', fk: 'teamId' },
      { name: 'parts', target: 'Part', kind: 'many', fk: 'itemId' },
    ],
  },
  Part: {
    name: 'Part',
    route: 'parts',
    table: 'parts',
    softDelete: true,
    columns: [
      id,
      { name: 'label', type: 'text', nullable: false },
      { name: 'size', type: 'integer', nullable: true },
      { name: 'color', type: 'enum', nullable: true, values: ['red', 'green', 'blue'] },
      { name: 'itemId', type: 'integer', nullable: false },
      deletedAt,
    ],
    relations: [{ name: 'item', target: 'Item', kind: 'one', fk: 'itemId' }],
  },
  Ledger: {
    name: 'Ledger',
    route: 'ledgers',
    table: 'ledgers',
    softDelete: false,
    columns: [
      id,
      { name: 'ref', type: 'text', nullable: false },
      { name: 'amount', type: 'decimal', nullable: false, scale: 2 },
      { name: 'memo', type: 'text', nullable: true },
    ],
    relations: [],
  },
};

/** Join paths the Item routes allow (`joins` in `.svcrc`). */
export const ITEM_JOINS = ['team', 'team.org', 'parts', 'team.items'] as const;
export type ItemJoin = (typeof ITEM_JOINS)[number];

/** Pagination of the app (`api.pagination`). */
export const PAGINATION = { defaultLimit: 10, maxLimit: 50 } as const;

export function column(entity: EntityName, name: string): FieldSpec {
  const found = ENTITIES[entity].columns.find((c) => c.name === name);
  if (!found) throw new Error(`no column ${entity}.${name}`);
  return found;
}

export function relation(entity: EntityName, name: string): RelationSpec {
  const found = ENTITIES[entity].relations.find((r) => r.name === name);
  if (!found) throw new Error(`no relation ${entity}.${name}`);
  return found;
}

/** The entity at the end of a relation path from `root`, and whether the path crosses a to-many relation. */
export function walk(root: EntityName, path: readonly string[]): { entity: EntityName; toMany: boolean } {
  let entity = root;
  let toMany = false;
  for (const name of path) {
    const rel = relation(entity, name);
    if (rel.kind === 'many') toMany = true;
    entity = rel.target;
  }
  return { entity, toMany };
}
