import { Module } from '@nestjs/common';
import { BranchModuleBase } from '../../autogen/branches/branch.module.base';
import { BranchServiceBase } from '../../autogen/branches/branch.service.base';
import { BranchController } from './branch.controller';
import { BranchService } from './branch.service';

/**
 * The module of Branch. This file is yours: `svc generate` created it once and never changes it.
 * BranchModuleBase brings the generated side (the repository); your service is registered under
 * BranchServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [BranchModuleBase],
  controllers: [BranchController],
  providers: [BranchService, { provide: BranchServiceBase, useExisting: BranchService }],
  exports: [BranchService, BranchServiceBase],
})
export class BranchModule {}
