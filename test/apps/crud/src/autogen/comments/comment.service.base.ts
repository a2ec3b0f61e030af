import { Injectable } from '@nestjs/common';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Comment } from './comment.entity';

/** Generated CRUD service of Comment; hooks go in CommentService (src/extensions/comments/comment.service.ts). */
@Injectable()
export class CommentServiceBase extends CrudService<Comment> {
  constructor(runtime: SvcRuntime) {
    super(runtime, 'Comment');
  }
}
