import { Injectable } from '@nestjs/common';
import { BookCopyServiceBase } from '../../autogen/book-copies/book-copy.service.base';

/**
 * The service of BookCopy, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class BookCopyService extends BookCopyServiceBase {}
