import { Controller } from '@nestjs/common';
import { AttachmentControllerBase } from '../../autogen/attachments/attachment.controller.base';

/**
 * The routes of /attachments: the generated ones are inherited from AttachmentControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('attachments')
export class AttachmentController extends AttachmentControllerBase {}
