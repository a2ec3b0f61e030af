import { Module } from '@nestjs/common';
import { CategoryModuleBase } from '../../autogen/categories/category.module.base';
import { CategoryServiceBase } from '../../autogen/categories/category.service.base';
import { CategoryController } from './category.controller';
import { CategoryService } from './category.service';

/**
 * The module of Category. This file is yours: `svc generate` created it once and never changes it.
 * CategoryModuleBase brings the generated side (the repository); your service is registered under
 * CategoryServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [CategoryModuleBase],
  controllers: [CategoryController],
  providers: [CategoryService, { provide: CategoryServiceBase, useExisting: CategoryService }],
  exports: [CategoryService, CategoryServiceBase],
})
export class CategoryModule {}
