import type { INestApplication } from '@nestjs/common';
import type { SvcModuleOptions } from '../interfaces/svc-module-options.interface';
import { svcLogLevels } from '../logging/log-levels';
import { createRequestLogger } from '../logging/request-logger';
import { MODULE_OPTIONS_TOKEN } from '../svc.module-definition';
import { createDrainMiddleware, SvcShutdownState } from './shutdown-drain';

type Env = Record<string, string | undefined>;

/**
 * Express's `trust proxy` from `TRUST_PROXY`: `true`/`false`, a hop count, or comma-separated
 * addresses/subnets (`loopback, 10.0.0.0/8`). On Fastify see `svcFastifyOptions()`.
 */
export function trustProxySetting(raw: string | undefined): boolean | number | string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (value.toLowerCase() === 'true') return true;
  if (value.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * The process-level settings `configureSvcApp()` applies first, from the environment of
 * `SvcModule` (its `env` option, else `process.env`):
 *
 * - `LOG_LEVEL`, when set, replaces the logger levels the app was created with (create the app
 *   with `{ logger: svcLogLevels() }` for the default, `log`);
 * - `TRUST_PROXY` on Express: client IPs from `X-Forwarded-For` behind a load balancer (on Fastify
 *   it is an option of the adapter, read when it is created: see `svcFastifyOptions()`);
 * - one log line per request (`createRequestLogger()`), registered before the body parser so
 *   rejected bodies are logged too;
 * - draining on shutdown (`createDrainMiddleware()`), and shutdown hooks on SIGTERM/SIGINT that
 *   finish in-flight requests, close the database and exit with code 0.
 */
export function applyOperationalSettings(app: INestApplication): void {
  const env = environmentOf(app);
  if (env.LOG_LEVEL !== undefined && env.LOG_LEVEL.trim() !== '') app.useLogger(svcLogLevels(env));
  const trustProxy = trustProxySetting(env.TRUST_PROXY);
  const express = app as INestApplication & { set?: (setting: string, value: unknown) => unknown };
  if (trustProxy !== undefined && typeof express.set === 'function') express.set('trust proxy', trustProxy);
  app.use(createRequestLogger());
  app.use(createDrainMiddleware(app.get(SvcShutdownState, { strict: false })));
  app.enableShutdownHooks([], { useProcessExit: true });
}

function environmentOf(app: INestApplication): Env {
  try {
    return app.get<SvcModuleOptions>(MODULE_OPTIONS_TOKEN, { strict: false }).env ?? process.env;
  } catch {
    return process.env;
  }
}
