import { Module } from '@nestjs/common';
import { OrganizationModuleBase } from '../../autogen/organizations/organization.module.base';
import { OrganizationServiceBase } from '../../autogen/organizations/organization.service.base';
import { OrganizationController } from './organization.controller';
import { OrganizationService } from './organization.service';

/**
 * The module of Organization. This file is yours: `svc generate` created it once and never changes it.
 * OrganizationModuleBase brings the generated side (the repository); your service is registered under
 * OrganizationServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [OrganizationModuleBase],
  controllers: [OrganizationController],
  providers: [OrganizationService, { provide: OrganizationServiceBase, useExisting: OrganizationService }],
  exports: [OrganizationService, OrganizationServiceBase],
})
export class OrganizationModule {}
