import { type DynamicModule, Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { loadSvcrcOrThrow } from '../../../../lib/schema/load-svcrc';
import { join } from 'node:path';
import { AutogenModule } from './autogen/autogen.module';

/** Where the app's `.svcrc` is; the model is read from it at startup, as `svc dev` does. */
export const RELIABILITY_SVCRC = join(__dirname, '..', '.svcrc');

export interface ReliabilityAppOptions {
  /** Overrides `database.pool.max` of `.svcrc` (the pool-exhaustion test uses 2). */
  readonly poolMax?: number;
}

/** The app of `test/apps/reliability`, on the database described by `env`. */
export function reliabilityAppModule(env: Record<string, string>, options: ReliabilityAppOptions = {}): DynamicModule {
  const model = loadSvcrcOrThrow(RELIABILITY_SVCRC);
  const schema = options.poolMax === undefined ? model : { ...model, database: { ...model.database, pool: { max: options.poolMax } } };
  @Module({})
  class ReliabilityAppModule {}
  return {
    module: ReliabilityAppModule,
    imports: [SvcModule.forRoot({ schema, env }), AutogenModule],
  };
}
