import { Module } from '@nestjs/common';
import { AutogenModule } from '../autogen/autogen.module';
import { AuditEventsController } from './audit-events.controller';

/** Hand-written code: regeneration never touches this folder. */
@Module({
  imports: [AutogenModule],
  controllers: [AuditEventsController],
})
export class ExtensionsModule {}
