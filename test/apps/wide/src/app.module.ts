import { type DynamicModule, Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';

/** The app of `test/apps/wide`: one entity of 70 columns, on the database described by `env`. */
export function wideAppModule(env: Record<string, string>): DynamicModule {
  @Module({})
  class WideAppModule {}
  return { module: WideAppModule, imports: [SvcModule.forRoot({ schema: svcSchema, env }), AutogenModule, ExtensionsModule] };
}
