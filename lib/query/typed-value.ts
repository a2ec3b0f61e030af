/**
 * A typed scalar after validation: numbers for integer, strings for decimal/text/enum/uuid; for
 * timestamptz a Date, or UTC ISO text when the instant has microseconds a Date cannot hold.
 */
export type TypedScalar = string | number | boolean | Date;

export type TypedValue =
  | { readonly kind: 'none' }
  | { readonly kind: 'scalar'; readonly value: TypedScalar }
  | { readonly kind: 'list'; readonly items: readonly TypedScalar[] }
  | { readonly kind: 'range'; readonly from: TypedScalar; readonly to: TypedScalar }
  /** JSON columns compared as jsonb. */
  | { readonly kind: 'json'; readonly value: unknown };
