import type { ServiceModel } from '../schema/model';

export interface SvcModuleOptions {
  /**
   * The service model. Generated apps pass the model written to
   * `src/autogen/svc.model.ts`; a path to a `.svcrc` file is read at startup instead.
   */
  schema: ServiceModel | string;
  /** Environment to read `DATABASE_*` and `PGLITE_DATA_DIR` from. Default: `process.env`. */
  env?: Record<string, string | undefined>;
  /** Log every SQL statement (TypeORM logging). Default: false. */
  logSql?: boolean;
  /** Migration files for `svc migrate` and `migrationsRun`. Default: none. */
  migrations?: string[];
}
