export {
  DATABASE_TYPES,
  DEFAULT_PGLITE_DATA_DIR,
  DEFAULT_POOL_MAX,
  DatabaseConfigError,
  PGLITE_IN_MEMORY,
  describeDatabaseConfig,
  readDatabaseConfig,
  type DatabaseConfig,
  type DatabaseSsl,
  type DatabaseType,
  type PgliteDatabaseConfig,
  type PostgresDatabaseConfig,
} from './database-config';
export { constraintCatalog, type ConstraintCatalog, type ConstraintColumns } from './constraint-catalog';
export { DataDirLockedError, LOCK_FILE_NAME, acquireDataDirLock, type DataDirLock } from './data-dir-lock';
export {
  classifyDatabaseError,
  isDatabaseUnavailableError,
  type DatabaseErrorClass,
  type DatabaseFieldError,
} from './database-errors';
export { SchemaDropRefusedError, synchronizeWithoutDrops } from './guarded-synchronize';
export { openPglite, type PgliteConnection } from './pglite-connection';
export {
  CONNECT_TIMEOUT_MS,
  SvcDataSource,
  createDataSource,
  createTypeOrmOptions,
  svcDataSourceFactory,
  svcTypeOrmModuleOptions,
  type DatabaseOptions,
  type TypeOrmOptionsExtra,
} from './typeorm-options';
