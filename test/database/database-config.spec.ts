import * as path from 'node:path';
import {
  DatabaseConfigError,
  describeDatabaseConfig,
  readDatabaseConfig,
  type DatabaseConfig,
} from '../../lib/database';

const model = { database: { pool: { max: 20 } } };
const read = (env: NodeJS.ProcessEnv, m = model): DatabaseConfig => readDatabaseConfig(env, m);
const defaultDir = path.resolve('.svc/data');

describe('readDatabaseConfig', () => {
  describe('which database', () => {
    it.each<[string, NodeJS.ProcessEnv, DatabaseConfig]>([
      [
        'nothing set: PGlite in .svc/data, synchronized',
        {},
        { type: 'pglite', dataDir: defaultDir, synchronize: true },
      ],
      [
        'empty variables count as unset',
        { DATABASE_TYPE: '', DATABASE_URL: ' ', DATABASE_SYNC: '', PGLITE_DATA_DIR: '' },
        { type: 'pglite', dataDir: defaultDir, synchronize: true },
      ],
      ['DATABASE_TYPE=pglite', { DATABASE_TYPE: 'pglite' }, { type: 'pglite', dataDir: defaultDir, synchronize: true }],
      [
        'DATABASE_TYPE=pglite wins over DATABASE_URL',
        { DATABASE_TYPE: 'pglite', DATABASE_URL: 'postgres://u:p@h/db' },
        { type: 'pglite', dataDir: defaultDir, synchronize: true },
      ],
      ['PGLITE_DATA_DIR=memory', { PGLITE_DATA_DIR: 'memory' }, { type: 'pglite', dataDir: null, synchronize: true }],
      [
        'PGLITE_DATA_DIR=memory://',
        { PGLITE_DATA_DIR: 'memory://' },
        { type: 'pglite', dataDir: null, synchronize: true },
      ],
      [
        'PGLITE_DATA_DIR relative, resolved from cwd',
        { PGLITE_DATA_DIR: 'var/db' },
        { type: 'pglite', dataDir: path.resolve('var/db'), synchronize: true },
      ],
      [
        'PGLITE_DATA_DIR absolute',
        { PGLITE_DATA_DIR: '/srv/db' },
        { type: 'pglite', dataDir: '/srv/db', synchronize: true },
      ],
      [
        'PGlite with DATABASE_SYNC=false',
        { DATABASE_SYNC: 'false' },
        { type: 'pglite', dataDir: defaultDir, synchronize: false },
      ],
      [
        'DATABASE_URL alone: PostgreSQL, not synchronized',
        { DATABASE_URL: 'postgres://app:secret@db.example.com:6543/shop' },
        {
          type: 'postgres',
          host: 'db.example.com',
          port: 6543,
          username: 'app',
          password: 'secret',
          database: 'shop',
          ssl: false,
          poolMax: 20,
          synchronize: false,
          allowDrop: false,
        },
      ],
      [
        'DATABASE_TYPE=postgres (any case) with DATABASE_URL and DATABASE_SYNC=TRUE',
        { DATABASE_TYPE: 'Postgres', DATABASE_URL: 'postgresql://app@db/shop', DATABASE_SYNC: 'TRUE' },
        {
          type: 'postgres',
          host: 'db',
          port: 5432,
          username: 'app',
          password: undefined,
          database: 'shop',
          ssl: false,
          poolMax: 20,
          synchronize: true,
          allowDrop: false,
        },
      ],
    ])('%s', (_name, env, expected) => {
      expect(read(env)).toEqual(expected);
    });
  });

  describe('DATABASE_URL', () => {
    const url = (value: string) => read({ DATABASE_URL: value });

    it('decodes a URL-encoded user and password', () => {
      expect(url('postgres://us%40er:p%40ss%3Aw%2Fd@h:5432/db')).toMatchObject({
        username: 'us@er',
        password: 'p@ss:w/d',
      });
    });
    it('accepts postgresql://, IPv6 hosts, encoded database names and socket folders', () => {
      expect(url('postgresql://u@[::1]:5433/my%20db')).toMatchObject({ host: '::1', port: 5433, database: 'my db' });
      expect(url('postgres://u@%2Fvar%2Frun%2Fpostgresql/db')).toMatchObject({
        host: '/var/run/postgresql',
        port: 5432,
      });
    });
    it.each([
      ['?sslmode=require', { rejectUnauthorized: false }],
      ['?sslmode=no-verify', { rejectUnauthorized: false }],
      ['?sslmode=verify-full', { rejectUnauthorized: true }],
      ['?sslmode=verify-ca', { rejectUnauthorized: true }],
      ['?sslmode=disable', false],
      ['?sslmode=prefer', false],
      ['?ssl=true', { rejectUnauthorized: true }],
      ['?ssl=false', false],
      ['?application_name=x', false],
      ['', false],
    ])('%s gives ssl %j', (query, ssl) => {
      expect(url(`postgres://u:p@h/db${query}`)).toMatchObject({ ssl });
    });
    it('rejects a pool size that is not a positive integer', () => {
      expect(() => read({ DATABASE_URL: 'postgres://h/db' }, { database: { pool: { max: 0 } } })).toThrow(
        /database\.pool\.max in \.svcrc must be a positive integer, got 0/,
      );
    });
    it('takes the pool size from database.pool.max, 20 by default', () => {
      expect(read({ DATABASE_URL: 'postgres://h/db' }, { database: { pool: { max: 7 } } })).toMatchObject({
        poolMax: 7,
      });
      expect(read({ DATABASE_URL: 'postgres://h/db' }, {} as typeof model)).toMatchObject({ poolMax: 20 });
    });
  });

  describe('errors', () => {
    const SECRET = 'S3cr%40t-pw';
    it.each<[string, NodeJS.ProcessEnv, RegExp]>([
      [
        'unknown DATABASE_TYPE lists accepted values',
        { DATABASE_TYPE: 'mysql' },
        /DATABASE_TYPE="mysql" is not supported\. Use one of: pglite, postgres/,
      ],
      [
        'DATABASE_TYPE=postgres without DATABASE_URL',
        { DATABASE_TYPE: 'postgres' },
        /DATABASE_TYPE=postgres needs DATABASE_URL/,
      ],
      ['bad DATABASE_SYNC', { DATABASE_SYNC: 'yes' }, /DATABASE_SYNC="yes" is not valid\. Use true or false\./],
      ['bad DATABASE_SYNC on PostgreSQL', { DATABASE_URL: 'postgres://h/db', DATABASE_SYNC: '1' }, /DATABASE_SYNC="1"/],
      [
        'not a URL',
        { DATABASE_URL: `postgres://u:${SECRET}@h:99999/db` },
        /DATABASE_URL is invalid: it is not a valid URL\. URL-encode special characters/,
      ],
      ['not a URL (unencoded /)', { DATABASE_URL: `postgres://u:${SECRET}/x@h/db` }, /DATABASE_URL is invalid/],
      ['no scheme', { DATABASE_URL: `u:${SECRET}@h/db` }, /DATABASE_URL is invalid/],
      [
        'wrong scheme',
        { DATABASE_URL: `mysql://u:${SECRET}@h/db` },
        /the scheme "mysql" is not supported; use postgres:\/\/ or postgresql:\/\//,
      ],
      ['no host', { DATABASE_URL: `postgres://u:${SECRET}@/db` }, /DATABASE_URL is invalid/],
      ['no database', { DATABASE_URL: `postgres://u:${SECRET}@h:5432` }, /the database name is missing/],
      [
        'no database, trailing slash',
        { DATABASE_URL: `postgres://u:${SECRET}@h:5432/` },
        /the database name is missing/,
      ],
      ['port 0', { DATABASE_URL: `postgres://u:${SECRET}@h:0/db` }, /the port must be between 1 and 65535/],
      [
        'bad %-escape in the password',
        { DATABASE_URL: `postgres://u:${SECRET}%zz@h/db` },
        /the password has an invalid %-escape/,
      ],
      [
        'unknown sslmode',
        { DATABASE_URL: `postgres://u:${SECRET}@h/db?sslmode=maybe` },
        /sslmode=maybe is not supported/,
      ],
      ['bad ssl', { DATABASE_URL: `postgres://u:${SECRET}@h/db?ssl=maybe` }, /ssl=maybe is not valid/],
    ])('%s', (_name, env, message) => {
      let error: unknown;
      try {
        read(env);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DatabaseConfigError);
      const text = (error as Error).message;
      expect(text).toMatch(message);
      expect(text).toMatch(/\.$/);
      // Neither the encoded nor the decoded password is ever echoed.
      expect(text).not.toContain('S3cr');
    });
  });

  describe('describeDatabaseConfig', () => {
    it('never shows the password', () => {
      const config = read({ DATABASE_URL: 'postgres://app:hunter2@db:5432/shop?sslmode=require' });
      expect(describeDatabaseConfig(config)).toBe('PostgreSQL app@db:5432/shop (TLS)');
      expect(describeDatabaseConfig(read({}))).toBe('PGlite (.svc/data)');
      expect(describeDatabaseConfig(read({ PGLITE_DATA_DIR: 'memory' }))).toBe('PGlite (in memory)');
    });
  });
});
