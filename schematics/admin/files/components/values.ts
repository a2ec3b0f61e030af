/*
 * Parsing and validation the generated inputs share: the API's own rules for integers, decimals
 * (kept as strings so that no digit is lost) and instants.
 */
import type { Validator } from 'react-admin';

/** `<input type="datetime-local">` gives local time without an offset; the API reads that as UTC, so send an instant. */
export function parseDateTime(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

export const integer: Validator = (value: unknown) =>
  value === null || value === undefined || value === '' || (typeof value === 'number' && Number.isSafeInteger(value)) ? undefined : 'Must be a whole number';

/** `numeric(precision, scale)`: at most `precision - scale` digits before the point and `scale` after it. */
export function decimal(precision: number, scale: number): Validator {
  const shape = /^-?(\d+)(?:\.(\d+))?$/;
  return (value: unknown) => {
    if (value === null || value === undefined || value === '') return undefined;
    const match = typeof value === 'string' ? shape.exec(value.trim()) : null;
    if (match === null) return 'Must be a decimal number such as 12.50';
    const integerDigits = match[1].replace(/^0+(?=\d)/, '').length;
    if (integerDigits > precision - scale) return `At most ${precision - scale} digits before the point`;
    if ((match[2] ?? '').length > scale) return scale === 0 ? 'No digits after the point' : `At most ${scale} digits after the point`;
    return undefined;
  };
}

/** A decimal as typed, without surrounding spaces; empty is null. */
export function parseDecimal(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** A primary key typed in an autocomplete of a record that has no text field to search. */
export function idSearch(text: string): Record<string, string> {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(trimmed) ? { 'id||$eq': trimmed } : {};
}

/** A case-insensitive substring search of one text field, as an autocomplete's `filterToQuery`. */
export function textSearch(field: string): (text: string) => Record<string, string> {
  return (text: string) => (text.trim() === '' ? {} : { [`${field}||$contL`]: text.trim() });
}

/**
 * The list's search box over the searchable fields (trigram-indexed on the server): the typed text becomes
 * the `s` parameter, `{"$or":[{"title":{"$contL":"…"}}, …]}`, ANDed by the API with the other filters.
 */
export function searchOf(fields: readonly string[]): { parse: (text: string) => string | null; format: (value: unknown) => string } {
  return {
    parse: (text: string) => {
      if (text === '') return null;
      const conditions = fields.map((field) => ({ [field]: { $contL: text } }));
      return JSON.stringify(conditions.length === 1 ? conditions[0] : { $or: conditions });
    },
    format: (value: unknown) => {
      if (typeof value !== 'string' || value === '') return '';
      const found = /"\$contL":("(?:[^"\\]|\\.)*")/.exec(value);
      return found === null ? '' : (JSON.parse(found[1]) as string);
    },
  };
}

/** A save's `transform`: drops the `fields` left empty (a password input nobody typed in), so they are not sent. */
export function withoutEmpty(fields: readonly string[]): (data: Record<string, unknown>) => Record<string, unknown> {
  return (data) => {
    const kept = { ...data };
    for (const field of fields) if (kept[field] === undefined || kept[field] === null || kept[field] === '') delete kept[field];
    return kept;
  };
}
