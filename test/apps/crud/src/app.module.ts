import { type DynamicModule, Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { join } from 'node:path';
import { AutogenModule } from './autogen/autogen.module';
import { ExtensionsModule } from './extensions/extensions.module';

/** The app of `test/apps/crud`, on the database described by `env`. */
export function crudAppModule(env: Record<string, string>): DynamicModule {
  @Module({})
  class CrudAppModule {}
  return {
    module: CrudAppModule,
    imports: [SvcModule.forRoot({ schema: join(__dirname, '..', '.svcrc'), env }), AutogenModule, ExtensionsModule],
  };
}
