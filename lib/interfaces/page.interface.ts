/** The paginated list response of every generated `GET /<entities>`. */
export interface Page<T> {
  /** Records of this page. */
  data: T[];
  /** Number of records in this page. */
  count: number;
  /**
   * Number of records matching the query: exact, or with `count=estimated` the planner's estimate (for
   * callers the tenant scope does not restrict) or a capped count (see `totalCapped`); null with `count=none`.
   */
  total: number | null;
  /**
   * Present (`true`) only when `total` is capped: `count=estimated` for a caller the tenant scope
   * restricts, with more matching records than `api.pagination.estimatedCountThreshold`; `total` is then
   * that threshold, meaning "at least this many".
   */
  totalCapped?: true;
  /** Current page, 1-based; null on a page reached by `cursor`. */
  page: number | null;
  /** Number of pages for this page size; null with `count=none`. */
  pageCount: number | null;
  /** The `cursor` of the next page, or null when no row follows. */
  nextCursor: string | null;
}
