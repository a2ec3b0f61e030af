import type { SvcSchemaSource } from '../schema/resolve-schema';

export interface SvcModuleOptions {
  /**
   * The `.svcrc`: generated apps pass `svcSchema` from `src/autogen/svc.schema.ts` (the file as
   * written, typed `SvcrcV2`), checked and normalized at startup; a path to a `.svcrc` file is
   * read at startup instead. Required.
   */
  schema: SvcSchemaSource;
  /** Environment to read `DATABASE_*` and `PGLITE_DATA_DIR` from. Default: `process.env`. */
  env?: Record<string, string | undefined>;
  /** Log every SQL statement (TypeORM logging). Default: false. */
  logSql?: boolean;
  /** Migration files for `svc migrate` and `migrationsRun`. Default: none. */
  migrations?: string[];
}
