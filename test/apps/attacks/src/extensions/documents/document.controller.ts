import { Controller } from '@nestjs/common';
import { DocumentControllerBase } from '../../autogen/documents/document.controller.base';

/**
 * The routes of /documents: the generated ones are inherited from DocumentControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('documents')
export class DocumentController extends DocumentControllerBase {}
