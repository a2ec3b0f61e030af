import { Controller, UseGuards } from '@nestjs/common';
import { MemberControllerBase } from '../../autogen/members/member.controller.base';
import { StaffGuard } from '../staff.guard';

/** A guard on one generated controller: every /members route needs staff. */
@UseGuards(StaffGuard)
@Controller('members')
export class MemberController extends MemberControllerBase {}
