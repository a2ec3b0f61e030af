import { Injectable } from '@nestjs/common';
import { AnnouncementServiceBase } from '../../autogen/announcements/announcement.service.base';

/**
 * The service of Announcement, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class AnnouncementService extends AnnouncementServiceBase {}
