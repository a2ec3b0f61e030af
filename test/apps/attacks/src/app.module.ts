import { type DynamicModule, Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';
import { WhoAmIController } from './extensions/whoami.controller';

/** The signing secret of the attacks app; the tests mint (and forge) tokens with and around it. */
export const ATTACKS_JWT_SECRET = 'attacks-secret-7f3a9c1e5b2d4f60718293a4b5c6d7e8f9';

@Module({ controllers: [WhoAmIController] })
class WhoAmIModule {}

/**
 * The app of `test/apps/attacks` (auth with both guards global, `scopeBy` direct and dotted,
 * `created_at`/`updated_at`, soft delete, two `is_password` fields) on the database `env` describes.
 */
export function attacksAppModule(env: Record<string, string>): DynamicModule {
  @Module({})
  class AttacksAppModule {}
  return {
    module: AttacksAppModule,
    imports: [SvcModule.forRoot({ schema: svcSchema, env: { ...env, JWT_SECRET: ATTACKS_JWT_SECRET } }), AutogenModule, ExtensionsModule, WhoAmIModule],
  };
}
