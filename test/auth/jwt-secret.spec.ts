import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { estimatedEntropyBits, MissingJwtSecretError, resolveJwtSecret } from '../../lib/auth/tokens/jwt-secret';
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
    const secret = randomBytes(48).toString('base64');
    expect(resolveJwtSecret({ JWT_SECRET: secret }, auth, logger)).toBe(secret);
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns about a long but guessable secret, saying how to make one', () => {
    const { logger, warn } = quietLogger();
    resolveJwtSecret({ JWT_SECRET: 'a'.repeat(32) }, auth, logger);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/about 0 bits of entropy.*less than 128.*openssl rand -base64 48.*randomBytes\(48\)/),
    );
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

describe('estimatedEntropyBits', () => {
  it('scores secrets made as the docs say well over 128 bits, repeats and runs far under', () => {
    for (let i = 0; i < 200; i++) {
      expect(estimatedEntropyBits(randomBytes(48).toString('base64'))).toBeGreaterThan(250);
      expect(estimatedEntropyBits(randomBytes(48).toString('base64url'))).toBeGreaterThan(250);
      expect(estimatedEntropyBits(randomBytes(32).toString('hex'))).toBeGreaterThan(180);
    }
    expect(estimatedEntropyBits('a'.repeat(32))).toBe(0);
    expect(estimatedEntropyBits('abcdefghijklmnopqrstuvwxyz012345')).toBeLessThan(16);
    expect(estimatedEntropyBits('0123456789abcdef'.repeat(4))).toBeLessThan(128);
    expect(estimatedEntropyBits('ab'.repeat(32))).toBeLessThan(128);
  });
});
