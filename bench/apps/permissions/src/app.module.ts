import { Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';

/** A generated project's app module, as bench/apps/ours; the schema is bench/apps/permissions/.svcrc (auth, permissions). */
@Module({ imports: [SvcModule.forRoot({ schema: svcSchema }), AutogenModule, ExtensionsModule] })
export class AppModule {}
