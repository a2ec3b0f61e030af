import { Module } from '@nestjs/common';
import { CommentModuleBase } from '../../autogen/comments/comment.module.base';
import { CommentServiceBase } from '../../autogen/comments/comment.service.base';
import { CommentController } from './comment.controller';
import { CommentService } from './comment.service';

/**
 * The module of Comment. This file is yours: `svc generate` created it once and never changes it.
 * CommentModuleBase brings the generated side (the repository); your service is registered under
 * CommentServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [CommentModuleBase],
  controllers: [CommentController],
  providers: [CommentService, { provide: CommentServiceBase, useExisting: CommentService }],
  exports: [CommentService, CommentServiceBase],
})
export class CommentModule {}
