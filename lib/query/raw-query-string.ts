import { QueryError, quote } from './query.error';

/** One `key=value` pair of a query string, decoded. */
export interface RawParam {
  readonly key: string;
  readonly value: string;
}

/**
 * Splits a raw query string (with or without its leading `?`) into decoded pairs,
 * in order, keeping repeated keys. `+` is a space; malformed percent-encoding is
 * a QueryError. Values of keys for which `wanted` returns false are not decoded,
 * so junk in parameters we ignore cannot fail the request.
 *
 * Written by hand because Express 5's simple parser drops `filter[0]` keys.
 */
export function splitQueryString(raw: string, wanted: (key: string) => boolean = () => true): RawParam[] {
  const text = raw.startsWith('?') ? raw.slice(1) : raw;
  const params: RawParam[] = [];
  if (text === '') return params;
  for (const piece of text.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const rawKey = eq === -1 ? piece : piece.slice(0, eq);
    const key = decode(rawKey, () => new QueryError(quote(rawKey, 50), 'malformed percent-encoding in the parameter name'));
    if (!wanted(key)) continue;
    const rawValue = eq === -1 ? '' : piece.slice(eq + 1);
    const value = decode(rawValue, () => new QueryError(key, `malformed percent-encoding in ${quote(rawValue)}`));
    params.push({ key, value });
  }
  return params;
}

function decode(text: string, error: () => QueryError): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    throw error();
  }
}
