import { Controller, UseGuards } from '@nestjs/common';
import { MemberControllerBase } from '../../autogen/members/member.controller.base';
import { ScopeGuard, SvcAuthGuard } from '../../guards';

/**
 * Guards on one generated controller: every /members route needs a credential (a token or an API key).
 * What each role may then do is `.svcrc`'s `permissions` on Member: staff everything, a member their own record.
 */
@UseGuards(SvcAuthGuard, ScopeGuard)
@Controller('members')
export class MemberController extends MemberControllerBase {}
