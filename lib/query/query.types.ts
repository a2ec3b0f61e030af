/**
 * Types of the query pipeline:
 *   raw query string --parseQuery()--> ParsedQuery --validateQuery()--> ValidatedQuery --builders--> SQL
 * The parser knows nothing of entities; the validator knows the model but not TypeORM.
 */
import type { ColumnModel, CountMode, EntityModel, RelationModel } from '../schema/model';
import type { FilterOperator } from './operators';
import type { TypedValue } from './typed-value';

export { FILTER_OPERATORS, type FilterOperator } from './operators';
export type { CountMode } from '../schema/model';
export type { TypedScalar, TypedValue } from './typed-value';

/**
 * A value as it arrived: text from `filter`/`or` (`field||$op||value`), or JSON from `s`.
 * Lists and ranges from text are split on `,` by the parser.
 */
export type RawValue =
  | { readonly kind: 'none' }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | { readonly kind: 'json'; readonly value: unknown };

/** A boolean tree of conditions. `field` is a dotted path: `name` or `project.name`. */
export type WhereNode =
  | { readonly kind: 'and'; readonly children: readonly WhereNode[] }
  | { readonly kind: 'or'; readonly children: readonly WhereNode[] }
  | { readonly kind: 'not'; readonly child: WhereNode }
  | {
      readonly kind: 'condition';
      readonly field: string;
      readonly operator: FilterOperator;
      readonly value: RawValue;
      /** Where it came from, for error messages: `filter[0]`, `or[1]`, `s`. */
      readonly source: string;
    };

export type SortDirection = 'ASC' | 'DESC';

export interface SortNode {
  readonly field: string;
  readonly direction: SortDirection;
}

export interface JoinNode {
  /** Dotted relation path: `project` or `project.owner`. */
  readonly relation: string;
  /** Selected fields of the joined entity, or null for all. */
  readonly fields: readonly string[] | null;
}

/** The query string, understood but not yet checked against an entity. */
export interface ParsedQuery {
  readonly fields: readonly string[] | null;
  /** `filter`, `or` and `s` combined (see README "Combining filter, or and s"); null when none. */
  readonly where: WhereNode | null;
  readonly sort: readonly SortNode[];
  readonly join: readonly JoinNode[];
  readonly limit: number | null;
  readonly page: number | null;
  readonly offset: number | null;
  /** `include_deleted=1`. */
  readonly includeDeleted: boolean;
  /** `count=exact|estimated|none`, or null for the `.svcrc` default. */
  readonly count: CountMode | null;
  /** `cursor=<nextCursor of a previous answer>`, as sent (still signed and encoded). */
  readonly cursor: string | null;
  /** `onConflict=<field>` of `POST /<entities>/bulk`: insert or update by that unique field. */
  readonly onConflict?: string;
  /** `return=rows` of the by-filter writes: answer the changed rows besides their count. */
  readonly returnRows?: boolean;
}

/** A column reached from the root entity: `relationPath` empty for the root's own columns. */
export interface ColumnRef {
  readonly relationPath: readonly string[];
  readonly column: ColumnModel;
}

export type ValidatedWhere =
  | { readonly kind: 'and'; readonly children: readonly ValidatedWhere[] }
  | { readonly kind: 'or'; readonly children: readonly ValidatedWhere[] }
  | { readonly kind: 'not'; readonly child: ValidatedWhere }
  | {
      readonly kind: 'condition';
      readonly column: ColumnRef;
      readonly operator: FilterOperator;
      readonly value: TypedValue;
    };

export interface ValidatedJoin {
  /** Relation names from the root: ['project'] or ['project', 'owner']. */
  readonly path: readonly string[];
  readonly relation: RelationModel;
  readonly entity: EntityModel;
  /** Columns selected from the joined entity (primary key always included). */
  readonly columns: readonly ColumnModel[];
}

export interface ValidatedSort {
  readonly column: ColumnRef;
  readonly direction: SortDirection;
}

/** A query proven to name only existing, visible, allowed things, with typed values. */
export interface ValidatedQuery {
  readonly entity: EntityModel;
  /** Root columns to return (primary key always included). */
  readonly columns: readonly ColumnModel[];
  readonly where: ValidatedWhere | null;
  readonly sort: readonly ValidatedSort[];
  readonly joins: readonly ValidatedJoin[];
  readonly limit: number;
  readonly offset: number;
  /** 1-based page the offset falls in. */
  readonly page: number;
  /** Whether the list answers a page object (`page` or `offset` given, or `alwaysPaginate`) rather than a plain array. */
  readonly paginated: boolean;
  readonly includeDeleted: boolean;
  /** How `total` is computed. */
  readonly count: CountMode;
  /** With `count: 'estimated'`, an estimate below this is replaced by an exact count. */
  readonly estimatedCountThreshold: number;
  /**
   * Keyset pagination: the sort-key values (as PostgreSQL text, null for NULL) of the last row of the
   * previous page, one per `keysetSort()` key, decoded from a verified cursor. Null without `cursor`.
   */
  readonly after: readonly (string | null)[] | null;
}
