import { type DynamicModule, Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';

/** The signing secret of the identity app; tests mint spec-shaped tokens with it. */
export const IDENTITY_JWT_SECRET = 'identity-secret-3c5e7a9b1d2f4e6a8c0b2d4f6a8c0e2f';

/**
 * The app of `test/apps/identity`: the auth setup of docs/auth-and-tenancy.md as printed (users with a plain
 * `password` field and a `role`, memberships, organizations, sessions, `adminRoles`, a bypass role).
 */
export function identityAppModule(env: Record<string, string>): DynamicModule {
  @Module({})
  class IdentityAppModule {}
  return {
    module: IdentityAppModule,
    imports: [SvcModule.forRoot({ schema: svcSchema, env: { ...env, JWT_SECRET: IDENTITY_JWT_SECRET } }), AutogenModule, ExtensionsModule],
  };
}
