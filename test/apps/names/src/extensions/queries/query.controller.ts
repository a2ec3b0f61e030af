import { Controller } from '@nestjs/common';
import { QueryControllerBase } from '../../autogen/queries/query.controller.base';

/**
 * The routes of /queries: the generated ones are inherited from QueryControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('queries')
export class QueryController extends QueryControllerBase {}
