import { Module } from '@nestjs/common';
import { MemberModuleBase } from '../../autogen/members/member.module.base';
import { MemberServiceBase } from '../../autogen/members/member.service.base';
import { MemberController } from './member.controller';
import { MemberService } from './member.service';

/**
 * The module of Member. This file is yours: `svc generate` created it once and never changes it.
 * MemberModuleBase brings the generated side (the repository); your service is registered under
 * MemberServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [MemberModuleBase],
  controllers: [MemberController],
  providers: [MemberService, { provide: MemberServiceBase, useExisting: MemberService }],
  exports: [MemberService, MemberServiceBase],
})
export class MemberModule {}
