import { Module } from '@nestjs/common';
import { DocumentModuleBase } from '../../autogen/documents/document.module.base';
import { DocumentServiceBase } from '../../autogen/documents/document.service.base';
import { DocumentController } from './document.controller';
import { DocumentService } from './document.service';

/**
 * The module of Document. This file is yours: `svc generate` created it once and never changes it.
 * DocumentModuleBase brings the generated side (the repository); your service is registered under
 * DocumentServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [DocumentModuleBase],
  controllers: [DocumentController],
  providers: [DocumentService, { provide: DocumentServiceBase, useExisting: DocumentService }],
  exports: [DocumentService, DocumentServiceBase],
})
export class DocumentModule {}
