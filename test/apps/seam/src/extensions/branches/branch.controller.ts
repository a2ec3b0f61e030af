import { Controller, UseGuards } from '@nestjs/common';
import { BranchControllerBase } from '../../autogen/branches/branch.controller.base';
import { ManagerGuard } from '../manager.guard';

/** A guard on one generated controller: every /branches route needs a manager. */
@UseGuards(ManagerGuard)
@Controller('branches')
export class BranchController extends BranchControllerBase {}
