import { Logger } from '@nestjs/common';
import { MissingJwtSecretError, resolveJwtSecret } from '../../lib/auth/jwt-secret';
import type { AuthModel } from '../../lib/schema/model';
import { Test } from '@nestjs/testing';
import { tenancyAppModule } from '../apps/tenancy/src/app.module';

const auth = { organizationField: 'organizationId' } as AuthModel;

function quietLogger() {
  const logger = new Logger('test');
  const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
  return { logger, warn };
}

describe('resolveJwtSecret', () => {
  it('uses JWT_SECRET', () => {
    const { logger, warn } = quietLogger();
    expect(resolveJwtSecret({ JWT_SECRET: 'x'.repeat(40) }, auth, logger)).toBe('x'.repeat(40));
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns about a short secret', () => {
    const { logger, warn } = quietLogger();
    resolveJwtSecret({ JWT_SECRET: 'short' }, auth, logger);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('shorter than 32'));
  });

  it('refuses to start in production without a secret when auth is set', () => {
    expect(() => resolveJwtSecret({ NODE_ENV: 'production' }, auth)).toThrow(MissingJwtSecretError);
    expect(() => resolveJwtSecret({ NODE_ENV: 'production', JWT_SECRET: '' }, auth)).toThrow(/JWT_SECRET is not set/);
  });

  it('makes a random per-process secret elsewhere, with a warning', () => {
    const { logger, warn } = quietLogger();
    const a = resolveJwtSecret({ NODE_ENV: 'development' }, auth, logger);
    const b = resolveJwtSecret({}, auth, logger);
    expect(a).not.toBe(b);
    expect(a.length).toBeGreaterThanOrEqual(48);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('random secret'));
  });

  it('needs nothing without auth, even in production', () => {
    const { logger, warn } = quietLogger();
    expect(resolveJwtSecret({ NODE_ENV: 'production' }, null, logger)).toEqual(expect.any(String));
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('an application with auth in production without JWT_SECRET', () => {
  it('fails to start', async () => {
    const build = tenancyAppModule('global', { JWT_SECRET: '', NODE_ENV: 'production' });
    const env = { DATABASE_TYPE: 'pglite', PGLITE_DATA_DIR: 'memory', DATABASE_SYNC: 'true' };
    const moduleRef = Test.createTestingModule({ imports: [build(env)] });
    // Refused by the production checks or, without them, by resolveJwtSecret().
    await expect(moduleRef.compile()).rejects.toThrow(/JWT_SECRET is not set/);
  });
});
