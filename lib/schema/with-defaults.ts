import type { Defaulted } from './model';

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A settings section as written, with every key of `defaults` that it omits filled in, nested objects key by key.
 * Only for sections whose every key has a schema `default` (`SVCRC_DEFAULTS`): a key without one is left out.
 */
export function withDefaults<T extends object>(given: T | undefined, defaults: object): Defaulted<T> {
  const result: Record<string, unknown> = {};
  for (const [key, fallback] of Object.entries(defaults)) {
    const value = (given as Readonly<Record<string, unknown>> | undefined)?.[key];
    result[key] = isPlainObject(fallback) ? withDefaults(isPlainObject(value) ? value : undefined, fallback) : (value ?? fallback);
  }
  return result as Defaulted<T>;
}
