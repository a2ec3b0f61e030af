import { Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';

/** Exactly what a generated project's app module is (see sample/01-lending-library). */
@Module({ imports: [SvcModule.forRoot({ schema: svcSchema }), AutogenModule, ExtensionsModule] })
export class AppModule {}
