import { Injectable } from '@nestjs/common';
import { CategoryServiceBase } from '../../autogen/categories/category.service.base';

/**
 * The service of Category, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class CategoryService extends CategoryServiceBase {}
