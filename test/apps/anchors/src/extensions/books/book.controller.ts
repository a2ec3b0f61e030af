import { Controller } from '@nestjs/common';
import { BookControllerBase } from '../../autogen/books/book.controller.base';

/**
 * The routes of /books: the generated ones are inherited from BookControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('books')
export class BookController extends BookControllerBase {}
