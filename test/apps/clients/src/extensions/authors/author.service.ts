import { Injectable } from '@nestjs/common';
import { AuthorServiceBase } from '../../autogen/authors/author.service.base';

/**
 * The service of Author, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class AuthorService extends AuthorServiceBase {}
