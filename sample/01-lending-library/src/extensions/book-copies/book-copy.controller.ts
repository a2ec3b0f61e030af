import { Controller } from '@nestjs/common';
import { BookCopyControllerBase } from '../../autogen/book-copies/book-copy.controller.base';

/**
 * The routes of /book-copies: the generated ones are inherited from BookCopyControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('book-copies')
export class BookCopyController extends BookCopyControllerBase {}
