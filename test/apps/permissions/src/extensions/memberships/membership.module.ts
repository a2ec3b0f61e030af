import { Module } from '@nestjs/common';
import { MembershipModuleBase } from '../../autogen/memberships/membership.module.base';
import { MembershipServiceBase } from '../../autogen/memberships/membership.service.base';
import { MembershipController } from './membership.controller';
import { MembershipService } from './membership.service';

/**
 * The module of Membership. This file is yours: `svc generate` created it once and never changes it.
 * MembershipModuleBase brings the generated side (the repository); your service is registered under
 * MembershipServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [MembershipModuleBase],
  controllers: [MembershipController],
  providers: [MembershipService, { provide: MembershipServiceBase, useExisting: MembershipService }],
  exports: [MembershipService, MembershipServiceBase],
})
export class MembershipModule {}
