import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Repository } from 'typeorm';
import { Comment } from './comment.entity';

/** Generated CRUD service of Comment; hooks go in CommentService (src/extensions/comments/comment.service.ts). */
@Injectable()
export class CommentServiceBase extends CrudService<Comment> {
  constructor(@InjectRepository(Comment) repository: Repository<Comment>, runtime: SvcRuntime) {
    super(repository, runtime, 'Comment');
  }
}
