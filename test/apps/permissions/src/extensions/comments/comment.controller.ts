import { Controller } from '@nestjs/common';
import { CommentControllerBase } from '../../autogen/comments/comment.controller.base';

/**
 * The routes of /comments: the generated ones are inherited from CommentControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('comments')
export class CommentController extends CommentControllerBase {}
