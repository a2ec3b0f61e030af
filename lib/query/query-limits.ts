/**
 * Upper bounds on what one query string may ask for. They keep parsing and the
 * SQL it leads to cheap whatever a client sends; going over one is a 400.
 */
export interface QueryLimits {
  /** Conditions across `filter`, `or` and `s` together. Default 100. */
  readonly maxConditions: number;
  /** Items in one `$in`/`$notin`/`$inL`/`$notinL` list. Default 500. */
  readonly maxListItems: number;
  /** Characters in one value (or one list item). Default 2000. */
  readonly maxValueLength: number;
  /** `sort` entries. Default 20. */
  readonly maxSorts: number;
  /** `join` entries. Default 20. */
  readonly maxJoins: number;
  /** Names in `fields`, and in each join's field list. Default 200. */
  readonly maxFields: number;
  /** Characters of the decoded `s` JSON. Default 20000. */
  readonly maxSearchLength: number;
  /**
   * Logical levels in `s`: nested `$and`/`$or`/`$not` (and a field's `$or`/`$and` operator groups).
   * Value arrays (`$in` lists) do not count; a value nests at most one array deep. Default 10.
   */
  readonly maxSearchDepth: number;
}

export const DEFAULT_QUERY_LIMITS: Readonly<QueryLimits> = Object.freeze({
  maxConditions: 100,
  maxListItems: 500,
  maxValueLength: 2000,
  maxSorts: 20,
  maxJoins: 20,
  maxFields: 200,
  maxSearchLength: 20_000,
  maxSearchDepth: 10,
});

export function resolveQueryLimits(limits?: Partial<QueryLimits>): QueryLimits {
  return limits ? { ...DEFAULT_QUERY_LIMITS, ...limits } : DEFAULT_QUERY_LIMITS;
}
