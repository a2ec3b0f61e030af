import { Module } from '@nestjs/common';
import { CommentModule } from './comments/comment.module';
import { LoanItemModule } from './loan-items/loan-item.module';
import { OwnerModule } from './owners/owner.module';
import { ProjectModule } from './projects/project.module';
import { TaskModule } from './tasks/task.module';

/**
 * Your modules, which the app module imports. This file is yours: `svc generate` created it once,
 * and only adds the module of an entity new in .svcrc to `imports` (as `nest g resource` does).
 * Register your own controllers, providers and modules here.
 */
@Module({
  imports: [OwnerModule, ProjectModule, TaskModule, CommentModule, LoanItemModule],
})
export class ExtensionsModule {}
