import { Injectable } from '@nestjs/common';
import { CommentServiceBase } from '../../autogen/comments/comment.service.base';

/**
 * The service of Comment, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class CommentService extends CommentServiceBase {}
