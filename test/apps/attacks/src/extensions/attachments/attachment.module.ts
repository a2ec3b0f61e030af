import { Module } from '@nestjs/common';
import { AttachmentModuleBase } from '../../autogen/attachments/attachment.module.base';
import { AttachmentServiceBase } from '../../autogen/attachments/attachment.service.base';
import { AttachmentController } from './attachment.controller';
import { AttachmentService } from './attachment.service';

/**
 * The module of Attachment. This file is yours: `svc generate` created it once and never changes it.
 * AttachmentModuleBase brings the generated side (the repository); your service is registered under
 * AttachmentServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [AttachmentModuleBase],
  controllers: [AttachmentController],
  providers: [AttachmentService, { provide: AttachmentServiceBase, useExisting: AttachmentService }],
  exports: [AttachmentService, AttachmentServiceBase],
})
export class AttachmentModule {}
