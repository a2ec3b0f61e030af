/**
 * The index the generated entity declares for the row rules of `read` permissions: the tenant column,
 * then the columns the rules compare, so that a list, and above all its count, narrowed by a rule reads
 * an index rather than every row of the tenant. The primary key (indexed already), text, decimal and json
 * columns are left out (a long text would overflow a B-tree entry); at most three rule columns.
 */
import type { ColumnModel, EntityModel, PermissionCondition } from './model';

const MAX_RULE_COLUMNS = 3;
const INDEXABLE: ReadonlySet<ColumnModel['type']> = new Set(['integer', 'boolean', 'enum', 'uuid', 'timestamptz']);

export interface RuleIndex {
  readonly name: string;
  /** Property names, in index order. */
  readonly columns: readonly string[];
}

/** The index for `entity`'s read rules, or null when no read rule has a condition on an indexable column. */
export function permissionRuleIndex(entity: EntityModel): RuleIndex | null {
  const named: string[] = [];
  for (const rules of Object.values(entity.permissions ?? {})) {
    const where = rules.read?.where;
    if (where) collectFields(where, named);
  }
  const ruleColumns = [...new Set(named)]
    .map((name) => entity.columns.find((column) => column.name === name))
    .filter((column): column is ColumnModel => column !== undefined && column.kind !== 'primary' && INDEXABLE.has(column.type))
    .map((column) => column.name)
    .slice(0, MAX_RULE_COLUMNS);
  if (ruleColumns.length === 0) return null;
  const tenant = (entity.scope?.paths ?? []).filter((path) => path.relations.length === 0).map((path) => path.field);
  const columns = [...new Set([...tenant, ...ruleColumns])];
  return { name: `svc_rules_${entity.tableName}`.slice(0, 63), columns };
}

function collectFields(condition: PermissionCondition, into: string[]): void {
  for (const [key, value] of Object.entries(condition)) {
    if (key === '$and' || key === '$or' || key === '$not') {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item === 'object' && item !== null) collectFields(item as PermissionCondition, into);
      }
    } else if (!key.startsWith('$')) {
      into.push(key);
    }
  }
}
