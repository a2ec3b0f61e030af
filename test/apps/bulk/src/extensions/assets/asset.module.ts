import { Module } from '@nestjs/common';
import { AssetModuleBase } from '../../autogen/assets/asset.module.base';
import { AssetServiceBase } from '../../autogen/assets/asset.service.base';
import { AssetController } from './asset.controller';
import { AssetService } from './asset.service';

/**
 * The module of Asset. This file is yours: `svc generate` created it once and never changes it.
 * AssetModuleBase brings the generated side (the repository); your service is registered under
 * AssetServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [AssetModuleBase],
  controllers: [AssetController],
  providers: [AssetService, { provide: AssetServiceBase, useExisting: AssetService }],
  exports: [AssetService, AssetServiceBase],
})
export class AssetModule {}
