import { type DynamicModule, Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';

/** The signing secret the tests mint tokens with. */
export const ANCHORS_JWT_SECRET = 'anchors-e2e-secret-0123456789abcdef0123456789abcdef';

/** The app of `test/apps/anchors` on the database described by `env`; `api` overrides `.svcrc` `api`. */
export function anchorsAppModule(api: Record<string, unknown> = {}): (env: Record<string, string>) => DynamicModule {
  return (env) => {
    @Module({})
    class AnchorsAppModule {}
    const schema = { ...svcSchema, api: { ...svcSchema.api, ...api } };
    return {
      module: AnchorsAppModule,
      imports: [SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: ANCHORS_JWT_SECRET } }), AutogenModule, ExtensionsModule],
    };
  };
}
