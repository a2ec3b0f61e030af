import { Injectable } from '@nestjs/common';
import { ItemServiceBase } from '../../autogen/items/item.service.base';

/**
 * The service of Item, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class ItemService extends ItemServiceBase {}
