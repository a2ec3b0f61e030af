import { Controller } from '@nestjs/common';
import { AnnouncementControllerBase } from '../../autogen/announcements/announcement.controller.base';

/**
 * The routes of /announcements: the generated ones are inherited from AnnouncementControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('announcements')
export class AnnouncementController extends AnnouncementControllerBase {}
