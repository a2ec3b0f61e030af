/** The paginated list response of every generated `GET /<entities>`. */
export interface Page<T> {
  /** Records of this page. */
  data: T[];
  /** Number of records in this page. */
  count: number;
  /** Number of records matching the query: exact, or the planner's estimate with `count=estimated`; null with `count=none`. */
  total: number | null;
  /** Current page, 1-based; null on a page reached by `cursor`. */
  page: number | null;
  /** Number of pages for this page size; null with `count=none`. */
  pageCount: number | null;
  /** The `cursor` of the next page, or null when no row follows. */
  nextCursor: string | null;
}
