import { Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcModel } from './autogen/svc.model';
import { ExtensionsModule } from './extensions/extensions.module';

@Module({
  imports: [SvcModule.forRoot({ schema: svcModel }), AutogenModule, ExtensionsModule],
})
export class AppModule {}
