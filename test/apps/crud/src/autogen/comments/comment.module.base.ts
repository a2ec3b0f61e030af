import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Comment } from './comment.entity';

/** Generated module of Comment; CommentModule (src/extensions/comments/comment.module.ts) imports it and registers your classes. */
@Module({
  imports: [TypeOrmModule.forFeature([Comment])],
  exports: [TypeOrmModule],
})
export class CommentModuleBase {}
