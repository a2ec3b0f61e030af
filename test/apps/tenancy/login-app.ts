import { type DynamicModule, Module } from '@nestjs/common';
import { SvcGuardsModule, SvcModule, type SvcrcV2 } from '@svc/nest';
import type { LoginThrottleModel } from '../../../lib/schema/model';
import { AutogenModule } from './src/autogen/autogen.module';
import { ExtensionsModule } from './src/extensions/extensions.module';
import { svcSchema } from './src/autogen/svc.schema';
import { TENANCY_JWT_SECRET } from './src/app.module';

/**
 * The tenancy app with both guards global, its `auth.loginThrottle` (and any `api` key) replaced (as a `.svcrc`
 * would set it) and `TRUST_PROXY=loopback`, so a test can speak from several client IPs
 * with `X-Forwarded-For`.
 */
export function loginAppModule(loginThrottle: Partial<LoginThrottleModel> = {}, api: Partial<NonNullable<SvcrcV2['api']>> = {}) {
  return (env: Record<string, string>): DynamicModule => {
    @Module({})
    class LoginAppModule {}
    const schema: SvcrcV2 = {
      ...svcSchema,
      api: { ...svcSchema.api, ...api },
      auth: { ...svcSchema.auth, loginThrottle: { ...svcSchema.auth?.loginThrottle, ...loginThrottle } },
    };
    return {
      module: LoginAppModule,
      imports: [
        SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: TENANCY_JWT_SECRET, TRUST_PROXY: 'loopback' } }),
        AutogenModule,
        ExtensionsModule,
        SvcGuardsModule.forRoot({ global: true }),
      ],
    };
  };
}
