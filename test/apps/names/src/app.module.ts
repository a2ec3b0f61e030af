import { type DynamicModule, Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';

/** The app of `test/apps/names` (entities named like library exports) on the database described by `env`. */
export function namesAppModule(env: Record<string, string>): DynamicModule {
  @Module({})
  class NamesAppModule {}
  return { module: NamesAppModule, imports: [SvcModule.forRoot({ schema: svcSchema, env }), AutogenModule, ExtensionsModule] };
}
