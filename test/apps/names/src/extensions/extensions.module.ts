import { Module } from '@nestjs/common';
import { EntityModule } from './entities/entity.module';
import { GetModule } from './gets/get.module';
import { InjectableModule } from './injectables/injectable.module';
import { ModuleModule } from './modules/module.module';
import { PageModule } from './pages/page.module';
import { PostModule } from './posts/post.module';
import { QueryModule } from './queries/query.module';
import { RelationModule } from './relations/relation.module';
import { RepositoryModule } from './repositories/repository.module';
import { TypeModule } from './types/type.module';

/**
 * Your modules, which the app module imports. This file is yours: `svc generate` created it once,
 * and only adds the module of an entity new in .svcrc to `imports` (as `nest g resource` does).
 * Register your own controllers, providers and modules here.
 */
@Module({
  imports: [
    PostModule,
    PageModule,
    QueryModule,
    GetModule,
    TypeModule,
    RelationModule,
    RepositoryModule,
    InjectableModule,
    ModuleModule,
    EntityModule,
  ],
})
export class ExtensionsModule {}
