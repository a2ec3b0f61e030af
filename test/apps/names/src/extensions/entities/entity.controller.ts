import { Controller } from '@nestjs/common';
import { EntityControllerBase } from '../../autogen/entities/entity.controller.base';

/**
 * The routes of /entities: the generated ones are inherited from EntityControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('entities')
export class EntityController extends EntityControllerBase {}
