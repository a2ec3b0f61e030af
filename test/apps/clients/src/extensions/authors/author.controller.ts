import { Controller } from '@nestjs/common';
import { AuthorControllerBase } from '../../autogen/authors/author.controller.base';

/**
 * The routes of /authors: the generated ones are inherited from AuthorControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('authors')
export class AuthorController extends AuthorControllerBase {}
