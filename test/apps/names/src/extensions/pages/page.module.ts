import { Module } from '@nestjs/common';
import { PageModuleBase } from '../../autogen/pages/page.module.base';
import { PageServiceBase } from '../../autogen/pages/page.service.base';
import { PageController } from './page.controller';
import { PageService } from './page.service';

/**
 * The module of Page. This file is yours: `svc generate` created it once and never changes it.
 * PageModuleBase brings the generated side (the repository); your service is registered under
 * PageServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [PageModuleBase],
  controllers: [PageController],
  providers: [PageService, { provide: PageServiceBase, useExisting: PageService }],
  exports: [PageService, PageServiceBase],
})
export class PageModule {}
