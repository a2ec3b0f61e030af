import { Module } from '@nestjs/common';
import { BookCopyModuleBase } from '../../autogen/book-copies/book-copy.module.base';
import { BookCopyServiceBase } from '../../autogen/book-copies/book-copy.service.base';
import { BookCopyController } from './book-copy.controller';
import { BookCopyService } from './book-copy.service';

/**
 * The module of BookCopy. This file is yours: `svc generate` created it once and never changes it.
 * BookCopyModuleBase brings the generated side (the repository); your service is registered under
 * BookCopyServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [BookCopyModuleBase],
  controllers: [BookCopyController],
  providers: [BookCopyService, { provide: BookCopyServiceBase, useExisting: BookCopyService }],
  exports: [BookCopyService, BookCopyServiceBase],
})
export class BookCopyModule {}
