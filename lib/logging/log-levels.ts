import type { LogLevel } from '@nestjs/common';

/** Values `LOG_LEVEL` accepts, from the quietest; each includes the ones before it. */
export const LOG_LEVEL_NAMES = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
export type LogLevelName = (typeof LOG_LEVEL_NAMES)[number];

/** Level used when `LOG_LEVEL` is unset. */
export const DEFAULT_LOG_LEVEL: LogLevelName = 'log';

/** `LOG_LEVEL` holds a value Nest has no level for. */
export class InvalidLogLevelError extends Error {
  constructor(raw: string) {
    const hint = raw.trim().toLowerCase() === 'info' ? ' (Nest calls "info" "log")' : '';
    super(`LOG_LEVEL="${raw}" is not valid${hint}. Use one of: ${LOG_LEVEL_NAMES.join(', ')} (default ${DEFAULT_LOG_LEVEL}).`);
    this.name = 'InvalidLogLevelError';
  }
}

/**
 * The Nest logger levels for `LOG_LEVEL` (error, warn, log, debug or verbose; default log):
 * that level and every more severe one, `fatal` always included.
 *
 * ```ts
 * const app = await NestFactory.create(AppModule, { logger: svcLogLevels() });
 * ```
 *
 * @throws InvalidLogLevelError for any other value.
 */
export function svcLogLevels(env: Record<string, string | undefined> = process.env): LogLevel[] {
  const raw = env.LOG_LEVEL;
  const name = raw === undefined || raw.trim() === '' ? DEFAULT_LOG_LEVEL : raw.trim().toLowerCase();
  const index = (LOG_LEVEL_NAMES as readonly string[]).indexOf(name);
  if (index === -1) throw new InvalidLogLevelError(raw ?? '');
  return ['fatal', ...LOG_LEVEL_NAMES.slice(0, index + 1)];
}
