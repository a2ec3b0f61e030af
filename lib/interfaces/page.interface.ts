/** The paginated list response of every generated `GET /<entities>`. */
export interface Page<T> {
  /** Records of this page. */
  data: T[];
  /** Number of records in this page. */
  count: number;
  /** Number of records matching the query. */
  total: number;
  /** Current page, 1-based. */
  page: number;
  /** Number of pages for this page size. */
  pageCount: number;
}
