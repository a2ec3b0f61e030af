import { Controller } from '@nestjs/common';
import { RelationControllerBase } from '../../autogen/relations/relation.controller.base';

/**
 * The routes of /relations: the generated ones are inherited from RelationControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('relations')
export class RelationController extends RelationControllerBase {}
