/**
 * A query string that cannot be honoured: malformed, over a limit, or naming
 * something the entity does not expose. The HTTP layer maps it to 400.
 *
 * `message` is `<param>: <detail>` so it reads on its own in logs and responses.
 */
export class QueryError extends Error {
  override readonly name = 'QueryError';

  constructor(
    /** The query parameter at fault, as the client wrote it: `filter[0]`, `sort`, `s`, `limit`. */
    readonly param: string,
    /** What is wrong, without the parameter prefix. */
    readonly detail: string,
  ) {
    super(`${param}: ${detail}`);
  }
}

/** Quotes a client-supplied string for an error message, cut short so a huge value cannot flood logs. */
export function quote(value: string, max = 100): string {
  const shown = value.length > max ? `${value.slice(0, max)}...` : value;
  return JSON.stringify(shown);
}
