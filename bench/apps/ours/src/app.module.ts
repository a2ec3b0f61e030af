import { Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcModel } from './autogen/svc.model';

/** Exactly what a generated project's app module is (see sample/01-lending-library). */
@Module({ imports: [SvcModule.forRoot({ schema: svcModel }), AutogenModule] })
export class AppModule {}
