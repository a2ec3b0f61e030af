import type { ColumnModel, ColumnType } from '../schema/model';

/**
 * Whether `text` is how PostgreSQL writes a value of the column's type (`<value>::text`), as cursors
 * carry them. Cursors are signed, so this only matters if the key leaks: a value of the wrong shape is
 * then refused (400) instead of reaching the database as a bound parameter it cannot cast.
 */
export function isKeysetText(column: ColumnModel, text: string): boolean {
  const pattern = TEXT_FORMS[column.type];
  if (column.type === 'enum') return column.values?.includes(text) ?? false;
  return pattern === null || pattern.test(text);
}

const TEXT_FORMS: Record<ColumnType, RegExp | null> = {
  text: null,
  json: null,
  enum: null,
  integer: /^-?\d{1,19}$/,
  decimal: /^-?\d{1,1000}(\.\d{1,1000})?$/,
  boolean: /^(true|false)$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  // `2026-11-25 17:31:43.123456+00` in the ISO style; loose, since the session's DateStyle may write other forms.
  timestamptz: /^[0-9A-Za-z :.,/+-]{1,64}$/,
};
