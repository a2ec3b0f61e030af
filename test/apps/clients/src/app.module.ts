import { type DynamicModule, Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';

/** The app of `test/apps/clients` (authors, posts, categories; CORS on) driven by real front-end data providers. */
export function clientsAppModule(env: Record<string, string>): DynamicModule {
  @Module({})
  class ClientsAppModule {}
  return { module: ClientsAppModule, imports: [SvcModule.forRoot({ schema: svcSchema, env }), AutogenModule, ExtensionsModule] };
}
