import { type DynamicModule, Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';

/** The signing secret the tests mint tokens with. */
export const SEAM_JWT_SECRET = 'seam-e2e-secret-0123456789abcdef0123456789abcdef';

/** The app of `test/apps/seam` on the database described by `env`. */
export function seamAppModule(env: Record<string, string>): DynamicModule {
  @Module({})
  class SeamAppModule {}
  return {
    module: SeamAppModule,
    imports: [SvcModule.forRoot({ schema: svcSchema, env: { ...env, JWT_SECRET: SEAM_JWT_SECRET } }), AutogenModule, ExtensionsModule],
  };
}
