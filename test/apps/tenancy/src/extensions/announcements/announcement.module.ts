import { Module } from '@nestjs/common';
import { AnnouncementModuleBase } from '../../autogen/announcements/announcement.module.base';
import { AnnouncementServiceBase } from '../../autogen/announcements/announcement.service.base';
import { AnnouncementController } from './announcement.controller';
import { AnnouncementService } from './announcement.service';

/**
 * The module of Announcement. This file is yours: `svc generate` created it once and never changes it.
 * AnnouncementModuleBase brings the generated side (the repository); your service is registered under
 * AnnouncementServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [AnnouncementModuleBase],
  controllers: [AnnouncementController],
  providers: [AnnouncementService, { provide: AnnouncementServiceBase, useExisting: AnnouncementService }],
  exports: [AnnouncementService, AnnouncementServiceBase],
})
export class AnnouncementModule {}
