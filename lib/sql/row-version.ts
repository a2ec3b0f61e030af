/**
 * The version of a stored row: the MD5 of the text form of its visible columns (what a response
 * may contain; hidden columns such as password hashes are left out, so a change a caller cannot
 * see never shows in its `ETag`), computed by PostgreSQL in the statement that reads or writes
 * the row. It changes whenever a value a caller receives changes and needs no column of its own,
 * so it works on any table, on PGlite and PostgreSQL alike. `xmin` would also change on an UPDATE
 * that writes the same values (or only a hidden one), and is not the same on a replica after a restore.
 */

/** Alias of the version in a RETURNING or select list; `:` never occurs in a property name. */
export const ROW_VERSION_ALIAS = 'svc:version';

/** A version is 32 lowercase hex digits (MD5). */
export const ROW_VERSION_PATTERN = /^[0-9a-f]{32}$/;

/** Versions of the records the executors returned, kept beside them so the records stay plain data. */
const versions = new WeakMap<object, string>();

/** `md5(ROW(<columns>)::text)` of the row `alias` names. */
export function rowVersionSql(alias: string, columns: readonly string[]): string {
  return `md5(ROW(${columns.map((column) => `${alias}.${column}`).join(', ')})::text)`;
}

/** The version of a record a read or write returned; undefined for records from elsewhere. */
export function rowVersionOf(record: object): string | undefined {
  return versions.get(record);
}

export function rememberRowVersion(record: object, version: unknown): void {
  if (typeof version === 'string') versions.set(record, version);
}

/** Moves the version a RETURNING list carried (under `ROW_VERSION_ALIAS`) out of the record. */
export function takeRowVersion(record: Record<string, unknown>): void {
  if (!(ROW_VERSION_ALIAS in record)) return;
  rememberRowVersion(record, record[ROW_VERSION_ALIAS]);
  delete record[ROW_VERSION_ALIAS];
}

/** Gives `to` the version of `from` (a record rebuilt from a returned row). */
export function carryRowVersion(from: object, to: object): void {
  rememberRowVersion(to, versions.get(from));
}
