import { Injectable } from '@nestjs/common';
import { PageServiceBase } from '../../autogen/pages/page.service.base';

/**
 * The service of Page, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class PageService extends PageServiceBase {}
