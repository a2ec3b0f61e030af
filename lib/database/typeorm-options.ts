import type { TypeOrmModuleOptions } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { describeDatabaseConfig, type DatabaseConfig, type PostgresEndpoint } from './database-config';
import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { synchronizeWithoutDrops, type DropPolicy } from './guarded-synchronize';
import { databaseStartError, DatabaseStartError, isServerStarting } from './start-failure';
import { synchronizeSearchIndexes } from './search-indexes';
import { svcTypeParsers } from './type-parsers';

/** How long a new PostgreSQL connection may take before it fails, so a dead database fails fast. */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * How long opening waits for a PostgreSQL server that answers "starting up" (SQLSTATE 57P03), trying again
 * every `SERVER_STARTING_RETRY_MS`. Any other failure of the first connection ends the start at once.
 */
export const SERVER_STARTING_WAIT_MS = 30_000;
const SERVER_STARTING_RETRY_MS = 1_000;

/** How long the application keeps an idle session to a PGlite served by `svc dev` before handing it back. */
const PGLITE_SERVER_IDLE_MS = 1_000;

export interface TypeOrmOptionsExtra {
  /** TypeORM query logging, default false. */
  logging?: boolean;
  /** Migration file globs or classes' files (or migration classes), default none. */
  migrations?: (string | Function)[];
  /**
   * `database.statementTimeoutMs` of the application's data source: PostgreSQL cancels a statement that runs
   * longer (SQLSTATE 57014). Sent with each new connection (pg's `statement_timeout`), so it costs no round
   * trip. Ignored on PGlite, which cannot cancel a running statement. Default none: `svc migrate` and the
   * CLI's other commands leave it out.
   */
  statementTimeoutMs?: number;
  /**
   * `database.parallelWorkersPerStatement`: PostgreSQL's `max_parallel_workers_per_gather` for the application's
   * connections, sent with each (pg's `options`). Without it, one heavy count could take three processes, so
   * the per-credential cap on connections would not cap the CPU a tenant holds. Default none (the server's).
   */
  parallelWorkersPerStatement?: number;
  /**
   * Turns PostgreSQL's JIT compilation off for the application's connections. A generated list with a few dozen
   * to-many conditions is estimated costly enough for JIT, which then spent 9 s compiling what ran in 43 ms
   * (query-oracle seed 2299557489). CRUD statements are short: JIT never pays for itself on them.
   */
  jitOff?: boolean;
}

export interface DatabaseOptions {
  options: DataSourceOptions;
  /** Releases what opening took (PGlite and its folder lock). Call after the data source is destroyed. */
  dispose(): Promise<void>;
}

/**
 * Data source options for either database. Both use TypeORM's `postgres` driver,
 * so the same entities and the same SQL work on both; PGlite is reached through
 * its node-postgres adapter. On PGlite this opens the database (and locks its
 * folder): call `dispose()` once the data source is destroyed.
 */
export async function createTypeOrmOptions(
  config: DatabaseConfig,
  entities: Function[],
  extra: TypeOrmOptionsExtra = {},
): Promise<DatabaseOptions> {
  const common = {
    type: 'postgres',
    entities,
    // `createDataSource` synchronizes itself, refusing drops (see `synchronizeWithoutDrops`).
    synchronize: false,
    logging: extra.logging ?? false,
    migrations: extra.migrations ?? [],
    // gen_random_uuid() is built into PostgreSQL 13+ and PGlite; uuid-ossp is not in PGlite.
    uuidExtension: 'pgcrypto',
  } as const;
  if (config.type === 'postgres') {
    const primary = endpointOptions(config);
    return {
      options: {
        ...common,
        ...(config.readReplicas
          ? // TypeORM's replication: every query on the primary unless asked otherwise; SqlRunner asks for the CRUD reads.
            { replication: { master: primary, slaves: config.readReplicas.map(endpointOptions), defaultMode: 'master' as const } }
          : primary),
        connectTimeoutMS: CONNECT_TIMEOUT_MS,
        // `extra` goes to the pools of the replicas too.
        extra: {
          max: config.poolMax,
          types: svcTypeParsers,
          ...(extra.statementTimeoutMs !== undefined ? { statement_timeout: extra.statementTimeoutMs } : {}),
          ...sessionOptions(extra),
        },
      },
      dispose: async () => undefined,
    };
  }
  if (config.server !== undefined) {
    return {
      options: {
        ...common,
        host: config.server.host,
        port: config.server.port,
        username: 'postgres',
        database: 'postgres',
        installExtensions: false,
        connectTimeoutMS: CONNECT_TIMEOUT_MS,
        // One session (PGlite has one), handed back when idle so that `svc users create` can take its turn.
        extra: { max: 1, idleTimeoutMillis: PGLITE_SERVER_IDLE_MS, types: svcTypeParsers },
      },
      dispose: async () => undefined,
    };
  }
  const pglite = await loadPglite().openPglite(config);
  return {
    options: { ...common, installExtensions: false, extra: { ...pglite.extra, types: svcTypeParsers } },
    dispose: () => pglite.close(),
  };
}

/** Server settings sent with each new connection (pg's `options`): no round trip. */
function sessionOptions(extra: TypeOrmOptionsExtra): { options?: string } {
  const settings: string[] = [];
  if (extra.parallelWorkersPerStatement !== undefined) {
    settings.push(`-c max_parallel_workers_per_gather=${Math.trunc(extra.parallelWorkersPerStatement)}`);
  }
  if (extra.jitOff === true) settings.push('-c jit=off');
  return settings.length > 0 ? { options: settings.join(' ') } : {};
}

/**
 * PGlite is a development dependency of generated apps: a production install (`npm ci --omit=dev`) leaves it out,
 * so it is loaded only when the app runs embedded.
 */
function loadPglite(): typeof import('./pglite-connection') {
  try {
    return require('./pglite-connection') as typeof import('./pglite-connection');
  } catch (error) {
    if (!String((error as Error).message).includes('@electric-sql/pglite')) throw error;
    throw new DatabaseStartError(
      'DATABASE_URL is not set, so the app would run on embedded PGlite, but @electric-sql/pglite is not installed ' +
        '(a production install leaves it out). Set DATABASE_URL=postgres://<user>:<password>@<host>:<port>/<database>, ' +
        'or run npm install @electric-sql/pglite.',
      'MODULE_NOT_FOUND',
    );
  }
}

/** Credentials of one server, passed one by one, not as `url`: they are already decoded. */
function endpointOptions(endpoint: PostgresEndpoint) {
  return {
    host: endpoint.host,
    port: endpoint.port,
    username: endpoint.username,
    password: endpoint.password,
    database: endpoint.database,
    ssl: endpoint.ssl === false ? false : { ...endpoint.ssl },
  };
}

/** A data source that releases PGlite and its lock once destroyed. */
export class SvcDataSource extends DataSource {
  constructor(
    options: DataSourceOptions,
    private readonly disposeResources: () => Promise<void>,
  ) {
    super(options);
  }

  override async destroy(): Promise<void> {
    try {
      if (this.isInitialized) await super.destroy();
    } finally {
      await this.disposeResources();
    }
  }
}

/**
 * Opens and initializes a data source for `config`; with `synchronize`, a synchronization that would drop a
 * column or a table is refused unless `allowDrop` (on PGlite: one that holds data). If initialization fails,
 * whatever was opened is released before the error is rethrown: a {@link DatabaseStartError} when a setting
 * explains it. A PostgreSQL server that is starting up is waited for (`SERVER_STARTING_WAIT_MS`).
 */
export async function createDataSource(
  config: DatabaseConfig,
  entities: Function[],
  extra: TypeOrmOptionsExtra & { initialize?: boolean; server?: ServerFacts } = {},
): Promise<SvcDataSource> {
  if (config.type === 'postgres' && config.synchronize && extra.statementTimeoutMs !== undefined && extra.initialize !== false) {
    // Schema work is not the application's: synchronize (and build indexes) on connections without the
    // statement timeout, closed afterwards, then open the application's pool with it. What TypeORM asks the server
    // when it connects (version, database, schema) is carried over, so no start-up query meets the timeout.
    const schemaWork = await createDataSource(config, entities, { ...extra, statementTimeoutMs: undefined, parallelWorkersPerStatement: undefined });
    const server = serverFacts(schemaWork);
    await schemaWork.destroy();
    return createDataSource({ ...config, synchronize: false }, entities, { ...extra, server });
  }
  const deadline = Date.now() + SERVER_STARTING_WAIT_MS;
  for (;;) {
    try {
      return await openDataSource(config, entities, extra);
    } catch (error) {
      if (isServerStarting(error) && Date.now() < deadline) {
        new Logger('Database').warn(`${describeDatabaseConfig(config)} is starting up: trying again in 1 s`);
        await sleep(SERVER_STARTING_RETRY_MS);
        continue;
      }
      // An unreachable server, a missing database, a refused login: one line that says what to fix.
      throw databaseStartError(error, config) ?? error;
    }
  }
}

async function openDataSource(
  config: DatabaseConfig,
  entities: Function[],
  extra: TypeOrmOptionsExtra & { initialize?: boolean; server?: ServerFacts },
): Promise<SvcDataSource> {
  const { options, dispose } = await createTypeOrmOptions(config, entities, extra);
  const dataSource = new SvcDataSource(options, dispose);
  if (extra.initialize === false) return dataSource;
  if (extra.server) Object.assign(dataSource.driver, extra.server);
  try {
    await dataSource.initialize();
    if (config.synchronize) await synchronizeWithoutDrops(dataSource, dropPolicy(config));
    // After TypeORM's synchronization: the indexes need their columns.
    if (config.synchronize) await synchronizeSearchIndexes(dataSource);
  } catch (error) {
    await dataSource.destroy().catch(() => undefined);
    throw error;
  }
  return dataSource;
}

/** What TypeORM's PostgreSQL driver reads from the server when it connects, unless it already knows it. */
type ServerFacts = { readonly version?: string; readonly database?: string; readonly searchSchema?: string };

function serverFacts(dataSource: SvcDataSource): ServerFacts {
  const driver = dataSource.driver as ServerFacts;
  return { version: driver.version, database: driver.database, searchSchema: driver.searchSchema };
}

/** PostgreSQL refuses every drop; PGlite, synchronized by default for development, only a drop that loses data. */
function dropPolicy(config: DatabaseConfig): DropPolicy {
  if (config.allowDrop === true) return 'allow';
  return config.type === 'postgres' ? 'refuse' : 'refuse-with-data';
}

const SVC_DATABASE_CONFIG = Symbol('svc:database_config');
const SVC_SESSION_SETTINGS = Symbol('svc:session_settings');

/** What the application's connections are opened with, carried from the module options to the data source. */
type SessionSettings = Pick<TypeOrmOptionsExtra, 'statementTimeoutMs' | 'parallelWorkersPerStatement' | 'jitOff'>;

type SvcTypeOrmModuleOptions = TypeOrmModuleOptions & {
  [SVC_DATABASE_CONFIG]?: DatabaseConfig;
  [SVC_SESSION_SETTINGS]?: SessionSettings;
};

/**
 * Module options for `TypeOrmModule.forRootAsync({ useFactory, dataSourceFactory: svcDataSourceFactory })`.
 * Nothing is opened here: `svcDataSourceFactory` opens the database on each
 * connection attempt and releases it on failure, so a retry starts clean.
 * TypeORM's own retries are off: a failed first connection ends the start at once with one line (see
 * `createDataSource`, which waits only for a server that says it is starting up).
 */
export function svcTypeOrmModuleOptions(
  config: DatabaseConfig,
  options: TypeOrmOptionsExtra & { entities?: Function[]; autoLoadEntities?: boolean } = {},
): TypeOrmModuleOptions {
  const moduleOptions: SvcTypeOrmModuleOptions = {
    type: 'postgres',
    entities: options.entities ?? [],
    autoLoadEntities: options.autoLoadEntities ?? false,
    logging: options.logging ?? false,
    migrations: options.migrations ?? [],
    // Never retried here: a retry logs a stack each time, and a wrong setting stays wrong.
    toRetry: () => false,
    // An own enumerable symbol survives the spreads @nestjs/typeorm makes of these options.
    [SVC_DATABASE_CONFIG]: config,
    [SVC_SESSION_SETTINGS]: {
      statementTimeoutMs: options.statementTimeoutMs,
      parallelWorkersPerStatement: options.parallelWorkersPerStatement,
      jitOff: options.jitOff,
    },
  };
  return moduleOptions;
}

/**
 * `dataSourceFactory` for `TypeOrmModule.forRootAsync`: builds the data source
 * from options made by `svcTypeOrmModuleOptions` (entities include those from
 * `autoLoadEntities`), initializes it, and makes its `destroy()` (called by
 * `app.close()`) close PGlite and release the data folder lock.
 */
export async function svcDataSourceFactory(options?: DataSourceOptions): Promise<DataSource> {
  const config = (options as SvcTypeOrmModuleOptions | undefined)?.[SVC_DATABASE_CONFIG];
  const session = (options as SvcTypeOrmModuleOptions | undefined)?.[SVC_SESSION_SETTINGS];
  if (!options || !config) {
    throw new Error('svcDataSourceFactory needs module options made by svcTypeOrmModuleOptions().');
  }
  const entities = Array.isArray(options.entities) ? (options.entities as Function[]) : [];
  const manual = (options as TypeOrmModuleOptions).manualInitialization === true;
  return createDataSource(config, entities, {
    logging: options.logging === true,
    migrations: Array.isArray(options.migrations) ? (options.migrations as (string | Function)[]) : [],
    initialize: !manual,
    ...session,
  });
}
