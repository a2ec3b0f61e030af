import { Module } from '@nestjs/common';
import { AuthorModule } from './authors/author.module';
import { CategoryModule } from './categories/category.module';
import { PostModule } from './posts/post.module';

/**
 * Your modules, which the app module imports. This file is yours: `svc generate` created it once,
 * and only adds the module of an entity new in .svcrc to `imports` (as `nest g resource` does).
 * Register your own controllers, providers and modules here.
 */
@Module({
  imports: [CategoryModule, AuthorModule, PostModule],
})
export class ExtensionsModule {}
