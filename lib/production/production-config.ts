import { GENERATE_JWT_SECRET, MIN_SECRET_LENGTH, weakJwtSecretProblem } from '../auth/tokens/jwt-secret';
import { svcLogLevels } from '../logging/log-levels';
import { isProduction } from '../node-env';
import type { ServiceModel } from '../schema/model';

type Env = Record<string, string | undefined>;

/** A setting that makes the service unfit to start; the message names each variable and the fix. */
export class ProductionConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Refusing to start with NODE_ENV=production:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ProductionConfigError';
  }
}

function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

export { isProduction };

/**
 * What makes `env` unfit for production, one sentence per problem (empty when fit):
 * `JWT_SECRET` missing, shorter than 32 bytes or the `.env.example` placeholder while `.svcrc`
 * has `auth`, `DATABASE_URL` missing,
 * `DATABASE_SYNC=true`, `DATABASE_TYPE=pglite`. Checked whatever `NODE_ENV` says.
 */
export function productionConfigProblems(env: Env, model: Pick<ServiceModel, 'auth'>): string[] {
  const problems: string[] = [];
  if (model.auth && value(env, 'JWT_SECRET') === undefined) {
    problems.push(
      'JWT_SECRET is not set, and .svcrc has "auth": tokens would be signed with a key that dies with the process. ' +
        'Set JWT_SECRET to a random string of at least 32 characters (openssl rand -base64 48), the same on every instance.',
    );
  }
  const secret = env.JWT_SECRET;
  const weakness = model.auth && secret?.trim() ? weakJwtSecretProblem(secret) : undefined;
  if (weakness) {
    problems.push(
      `${weakness} Set JWT_SECRET to a random string of at least ${MIN_SECRET_LENGTH} bytes, the same on every instance: ${GENERATE_JWT_SECRET}.`,
    );
  }
  if (value(env, 'DATABASE_TYPE')?.toLowerCase() === 'pglite') {
    problems.push(
      'DATABASE_TYPE=pglite: the embedded database is for local use (one process, data on local disk). ' +
        'Unset DATABASE_TYPE (or set it to postgres) and set DATABASE_URL.',
    );
  }
  if (value(env, 'DATABASE_URL') === undefined) {
    problems.push(
      'DATABASE_URL is not set: production runs on PostgreSQL. Set DATABASE_URL=postgres://<user>:<password>@<host>:<port>/<database>.',
    );
  }
  if (value(env, 'DATABASE_SYNC')?.toLowerCase() === 'true') {
    problems.push(
      'DATABASE_SYNC=true: synchronization may drop columns and races between instances starting together. ' +
        'Unset it (or set false) and apply migrations once, in the release step (svc migrate).',
    );
  }
  return problems;
}

/**
 * The startup check `SvcModule` runs before it opens the database: `LOG_LEVEL` must be valid
 * (always), and with `NODE_ENV=production` none of {@link productionConfigProblems} may apply.
 *
 * @throws InvalidLogLevelError, ProductionConfigError
 */
export function assertProductionConfig(env: Env, model: Pick<ServiceModel, 'auth'>): void {
  svcLogLevels(env);
  if (!isProduction(env)) return;
  const problems = productionConfigProblems(env, model);
  if (problems.length > 0) throw new ProductionConfigError(problems);
}
