import { type DynamicModule, Module } from '@nestjs/common';
import { SvcGuardsModule, SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';

/** The signing secret the tests mint tokens with. */
export const BULK_JWT_SECRET = 'bulk-e2e-secret-0123456789abcdef0123456789abcdef';

/** The app of `test/apps/bulk` (upsert and by-filter writes) on the database described by `env`; `bulkWriteLimit` replaces the .svcrc's 5, `env` adds variables. */
export function bulkAppModule(options: { bulkWriteLimit?: number; env?: Record<string, string> } = {}) {
  return (env: Record<string, string>): DynamicModule => {
    @Module({})
    class BulkAppModule {}
    return {
      module: BulkAppModule,
      imports: [
        SvcModule.forRoot({
          schema: { ...svcSchema, api: { ...svcSchema.api, bulkWriteLimit: options.bulkWriteLimit ?? svcSchema.api?.bulkWriteLimit } },
          env: { ...env, JWT_SECRET: BULK_JWT_SECRET, ...options.env },
        }),
        AutogenModule,
        ExtensionsModule,
        SvcGuardsModule.forRoot({ global: true }),
      ],
    };
  };
}
