import { Module } from '@nestjs/common';
import { PostModuleBase } from '../../autogen/posts/post.module.base';
import { PostServiceBase } from '../../autogen/posts/post.service.base';
import { PostController } from './post.controller';
import { PostService } from './post.service';

/**
 * The module of Post. This file is yours: `svc generate` created it once and never changes it.
 * PostModuleBase brings the generated side (the repository); your service is registered under
 * PostServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [PostModuleBase],
  controllers: [PostController],
  providers: [PostService, { provide: PostServiceBase, useExisting: PostService }],
  exports: [PostService, PostServiceBase],
})
export class PostModule {}
