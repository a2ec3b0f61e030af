import { Controller } from '@nestjs/common';
import { PageControllerBase } from '../../autogen/pages/page.controller.base';

/**
 * The routes of /pages: the generated ones are inherited from PageControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('pages')
export class PageController extends PageControllerBase {}
