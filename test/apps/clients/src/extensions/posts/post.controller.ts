import { Controller } from '@nestjs/common';
import { PostControllerBase } from '../../autogen/posts/post.controller.base';

/**
 * The routes of /posts: the generated ones are inherited from PostControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('posts')
export class PostController extends PostControllerBase {}
