/**
 * Whether a record is in a caller's view of a list (`GET /<entities>?filter..&or..&s..`), judged in
 * memory: the live-data feed (#30) needs it for the row BEFORE a write, which the database no longer
 * holds once the write has committed (docs/engineering/decisions.md, "Live data (#30)").
 *
 * The view is what the list route selects: the query's `filter`/`or`/`s`, live rows unless
 * `include_deleted=1`, the tenant scope (skipped for `bypassRoles`) and the caller's `read` rules
 * (some role's `where` reaches the row; a condition on a cell no rule reaching the row grants does
 * not match). The rules are those the routes compile (PermissionRules, decideScope); only the
 * judging of a condition on a record is new (where-predicate.ts). Whatever needs another table — a
 * condition or `scopeBy` through a relation, the identity entities' rules — is `'unknown'`, never
 * guessed. A service's own `conditions()` and `rawSqlConditions()` hooks are not seen here.
 */
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { CrudRequest } from '../interfaces/crud-request.interface';
import type { ParsedQuery, ValidatedWhere } from '../query/query.types';
import { validateQuery } from '../query/validate-query';
import type { ColumnModel, EntityModel, ServiceModel } from '../schema/model';
import { IdentityRules } from '../scope/identity-rules';
import { assertPermitted, assertRelationsReadable } from '../scope/operation-permissions';
import { type CallerRule, PermissionRules } from '../scope/permission-rules';
import { ReadableCells } from '../scope/readable-cells';
import { missingContext } from '../scope/scope-enforcer';
import { decideScope, type ScopeValue } from '../scope/scope-rules';
import { and, type CellTruth, judgeOperator, judgeWhere, or, type Truth } from './where-predicate';

/** In the view, not in it, or not decidable without the database. */
export type ViewAnswer = boolean | 'unknown';

/** One caller's view of one list: asks of records whether they are in it. */
export interface ViewOfList {
  matches(record: Readonly<Record<string, unknown>>): ViewAnswer;
}

export class ViewMatcher {
  private readonly entities: ReadonlyMap<string, EntityModel>;
  private readonly permissions: PermissionRules;
  private readonly identity: IdentityRules;

  constructor(private readonly model: ServiceModel) {
    this.entities = new Map(model.entities.map((entity) => [entity.name, entity]));
    this.permissions = new PermissionRules(model, this.entities);
    this.identity = new IdentityRules(model);
  }

  /**
   * The caller's view of the list of `entityName` with `query` (as `parseQuery()` reads the query
   * string). Throws what the list route answers for the same query and caller: `QueryError` (400),
   * 403 when no role may read the entity or a related one, or when the context lacks a scope value.
   */
  view(entityName: string, query: ParsedQuery, auth: AuthContext | null): ViewOfList {
    const entity = this.entities.get(entityName);
    if (entity === undefined) throw new Error(`Unknown entity "${entityName}"`);
    const request: CrudRequest = { query, auth, skipScope: false };
    assertPermitted(entity, request, 'find', this.model);
    const validated = validateQuery(query, entity, this.entities, this.model.api.pagination);
    assertRelationsReadable(validated, request, this.model, this.entities);
    new ReadableCells(this.permissions, this.entities, request).assertNamedFieldsReadable(query, entity);
    const scope = decideScope(entity, request, 'find', this.entities);
    if (scope.kind === 'missing') throw missingContext(entity, scope.key);
    if (this.identity.kindOf(entity) !== null) return { matches: () => 'unknown' };
    const view: View = {
      where: validated.where,
      liveOnly: entity.softDelete && !validated.includeDeleted,
      scope: scope.kind === 'enforced' ? scope.values : [],
      rules: this.permissions.callerRules(entity, request, 'read'),
    };
    return { matches: (record) => answer(judgeView(view, record)) };
  }
}

interface View {
  readonly where: ValidatedWhere | null;
  readonly liveOnly: boolean;
  readonly scope: readonly ScopeValue[];
  /** The caller's `read` rules; null when `permissions` do not govern the entity. */
  readonly rules: readonly CallerRule[] | null;
}

function judgeView(view: View, record: Readonly<Record<string, unknown>>): Truth {
  const live = !view.liveOnly ? 'true' : !('deleted_at' in record) ? 'unknown' : record.deleted_at === null ? 'true' : 'false';
  const scoped = and(view.scope.map((entry) => judgeScope(entry, record)));
  if (view.rules === null) return and([live, scoped, view.where === null ? 'true' : judgeWhere(view.where, record)]);
  const reaches = view.rules.map((rule) => (rule.where === null ? 'true' : judgeWhere(rule.where, record)));
  const readable = or(reaches);
  const cells = cellTruth(view.rules, reaches);
  return and([live, scoped, readable, view.where === null ? 'true' : judgeWhere(view.where, record, cells)]);
}

/** `field = <caller's value>`; a path through a relation reads another table. */
function judgeScope(entry: ScopeValue, record: Readonly<Record<string, unknown>>): Truth {
  if (entry.path.relations.length > 0) return 'unknown';
  if (entry.value === null) return 'false';
  if (!(entry.path.field in record)) return 'unknown';
  return judgeOperator(entry.column, '$eq', { kind: 'scalar', value: entry.value }, record[entry.path.field]);
}

/**
 * A cell is readable where some rule that grants its field reaches the row (lib/scope/readable-cells.ts);
 * a primary key always is.
 */
function cellTruth(rules: readonly CallerRule[], reaches: readonly Truth[]): CellTruth {
  const cache = new Map<string, Truth>();
  return (column: ColumnModel) => {
    if (column.kind === 'primary') return 'true';
    let known = cache.get(column.name);
    if (known === undefined) {
      known = or(rules.flatMap((rule, index) => (rule.fields === null || rule.fields.has(column.name) ? [reaches[index]] : [])));
      cache.set(column.name, known);
    }
    return known;
  };
}

function answer(truth: Truth): ViewAnswer {
  return truth === 'unknown' ? 'unknown' : truth === 'true';
}
