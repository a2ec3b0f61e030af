import { type DynamicModule, Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { loadSvcrcOrThrow } from '../../../../lib/schema/load-svcrc';
import { join } from 'node:path';
import { AutogenModule } from './autogen/autogen.module';
import { ExtensionsModule } from './extensions/extensions.module';

/** Where the app's `.svcrc` is; the model is read from it at startup, as `svc dev` does. */
export const RELIABILITY_SVCRC = join(__dirname, '..', '.svcrc');

export interface ReliabilityAppOptions {
  /** Overrides `database.pool.max` of `.svcrc` (the pool-exhaustion test uses 2). */
  readonly poolMax?: number;
  /**
   * Overrides `api.concurrency.perCredential`: the burst tests send every request as one anonymous client, and
   * measure the connection pool's queue, not the cap's.
   */
  readonly perCredential?: number;
}

/** The app of `test/apps/reliability`, on the database described by `env`. */
export function reliabilityAppModule(env: Record<string, string>, options: ReliabilityAppOptions = {}): DynamicModule {
  const model = loadSvcrcOrThrow(RELIABILITY_SVCRC);
  const schema = {
    ...model,
    database: { ...model.database, pool: { max: options.poolMax ?? model.database.pool.max } },
    api: { ...model.api, concurrency: { ...model.api.concurrency, perCredential: options.perCredential ?? model.api.concurrency.perCredential } },
  };
  @Module({})
  class ReliabilityAppModule {}
  return {
    module: ReliabilityAppModule,
    imports: [SvcModule.forRoot({ schema, env }), AutogenModule, ExtensionsModule],
  };
}
