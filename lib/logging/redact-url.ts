/**
 * Query parameters whose values are shown in request logs: the query contract's structural
 * ones, which name fields and sizes, never data. Every other value (filters, search, tokens,
 * keys, anything an extension route takes) is replaced by `***`.
 */
export const LOGGED_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'limit',
  'page',
  'offset',
  'per_page',
  'sort',
  'fields',
  'join',
  'include_deleted',
  'cache',
]);

const PARAMETER_NAME = /^[A-Za-z_][\w[\]-]{0,31}$/;

/**
 * A request target as it may be logged: the path as sent, then each query parameter with its
 * value kept only for {@link LOGGED_QUERY_PARAMETERS} (`sort[0]=name,ASC`) and `***` otherwise.
 * A name without a value, or one that does not look like a parameter name (it may be a
 * token), is redacted too.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const path = url.slice(0, start);
  const query = url.slice(start + 1);
  if (query === '') return path;
  const parts = query.split('&').map((part) => {
    if (part === '') return part;
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      return '***';
    }
    if (!PARAMETER_NAME.test(name)) return '***';
    const base = name.replace(/\[\d*\]$/, '');
    if (equals === -1) return LOGGED_QUERY_PARAMETERS.has(base) ? name : '***';
    return LOGGED_QUERY_PARAMETERS.has(base) ? `${name}=${safeValue(part.slice(equals + 1))}` : `${name}=***`;
  });
  return `${path}?${parts.join('&')}`;
}

/** Decoded for reading, with control characters (a forged log line) replaced. */
function safeValue(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).replace(/[\u0000-\u001f\u007f]/g, '?');
  } catch {
    return '***';
  }
}
