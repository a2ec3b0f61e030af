import { Module } from '@nestjs/common';
import { AuthorModuleBase } from '../../autogen/authors/author.module.base';
import { AuthorServiceBase } from '../../autogen/authors/author.service.base';
import { AuthorController } from './author.controller';
import { AuthorService } from './author.service';

/**
 * The module of Author. This file is yours: `svc generate` created it once and never changes it.
 * AuthorModuleBase brings the generated side (the repository); your service is registered under
 * AuthorServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [AuthorModuleBase],
  controllers: [AuthorController],
  providers: [AuthorService, { provide: AuthorServiceBase, useExisting: AuthorService }],
  exports: [AuthorService, AuthorServiceBase],
})
export class AuthorModule {}
