import { Module } from '@nestjs/common';
import { BookModuleBase } from '../../autogen/books/book.module.base';
import { BookServiceBase } from '../../autogen/books/book.service.base';
import { BookController } from './book.controller';
import { BookService } from './book.service';

/**
 * The module of Book. This file is yours: `svc generate` created it once and never changes it.
 * BookModuleBase brings the generated side (the repository); your service is registered under
 * BookServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [BookModuleBase],
  controllers: [BookController],
  providers: [BookService, { provide: BookServiceBase, useExisting: BookService }],
  exports: [BookService, BookServiceBase],
})
export class BookModule {}
