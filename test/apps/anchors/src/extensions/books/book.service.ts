import { Injectable } from '@nestjs/common';
import { BookServiceBase } from '../../autogen/books/book.service.base';

/**
 * The service of Book, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class BookService extends BookServiceBase {}
