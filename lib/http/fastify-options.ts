import { trustProxySetting } from '../production/operational-settings';

type Env = Record<string, string | undefined>;

/** Options of `new FastifyAdapter()` (a subset of Fastify's server options), without importing Fastify. */
export interface SvcFastifyOptions {
  /** `TRUST_PROXY`; a hop count becomes a function, since Fastify takes a bare number as "trust no proxy". */
  trustProxy?: boolean | string | ((address: string, hop: number) => boolean);
  /** `/tasks/` is `/tasks`, as on Express. */
  routerOptions: { ignoreTrailingSlash: boolean };
}

/**
 * Options for Nest's Fastify adapter that `configureSvcApp()` cannot apply, because Fastify reads
 * them only when it is created: `new FastifyAdapter(svcFastifyOptions())`. With them the service
 * behaves as on Express:
 *
 * - `TRUST_PROXY` (`true`/`false`, a hop count, or comma-separated addresses/subnets) decides
 *   which `X-Forwarded-For` entries give the client IP, for rate limiting;
 * - a trailing slash does not change the route.
 *
 * Spread them into options of your own: `new FastifyAdapter({ ...svcFastifyOptions(), logger: true })`.
 */
export function svcFastifyOptions(env: Env = process.env): SvcFastifyOptions {
  const trust = trustProxySetting(env.TRUST_PROXY);
  const options: SvcFastifyOptions = { routerOptions: { ignoreTrailingSlash: true } };
  if (typeof trust === 'number') options.trustProxy = (_address, hop) => hop < trust;
  else if (trust !== undefined) options.trustProxy = trust;
  return options;
}
