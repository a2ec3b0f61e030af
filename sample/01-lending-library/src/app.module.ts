import { Module } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';

@Module({
  imports: [SvcModule.forRoot({ schema: svcSchema }), AutogenModule, ExtensionsModule],
})
export class AppModule {}
