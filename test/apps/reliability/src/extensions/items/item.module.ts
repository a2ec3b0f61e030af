import { Module } from '@nestjs/common';
import { ItemModuleBase } from '../../autogen/items/item.module.base';
import { ItemServiceBase } from '../../autogen/items/item.service.base';
import { ItemController } from './item.controller';
import { ItemService } from './item.service';

/**
 * The module of Item. This file is yours: `svc generate` created it once and never changes it.
 * ItemModuleBase brings the generated side (the repository); your service is registered under
 * ItemServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [ItemModuleBase],
  controllers: [ItemController],
  providers: [ItemService, { provide: ItemServiceBase, useExisting: ItemService }],
  exports: [ItemService, ItemServiceBase],
})
export class ItemModule {}
