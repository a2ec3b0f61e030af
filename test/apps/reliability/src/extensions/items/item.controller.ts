import { Controller } from '@nestjs/common';
import { ItemControllerBase } from '../../autogen/items/item.controller.base';

/**
 * The routes of /items: the generated ones are inherited from ItemControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('items')
export class ItemController extends ItemControllerBase {}
