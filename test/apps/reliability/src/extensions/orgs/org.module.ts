import { Module } from '@nestjs/common';
import { OrgModuleBase } from '../../autogen/orgs/org.module.base';
import { OrgServiceBase } from '../../autogen/orgs/org.service.base';
import { OrgController } from './org.controller';
import { OrgService } from './org.service';

/**
 * The module of Org. This file is yours: `svc generate` created it once and never changes it.
 * OrgModuleBase brings the generated side (the repository); your service is registered under
 * OrgServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [OrgModuleBase],
  controllers: [OrgController],
  providers: [OrgService, { provide: OrgServiceBase, useExisting: OrgService }],
  exports: [OrgService, OrgServiceBase],
})
export class OrgModule {}
