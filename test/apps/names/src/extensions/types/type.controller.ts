import { Controller } from '@nestjs/common';
import { TypeControllerBase } from '../../autogen/types/type.controller.base';

/**
 * The routes of /types: the generated ones are inherited from TypeControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('types')
export class TypeController extends TypeControllerBase {}
