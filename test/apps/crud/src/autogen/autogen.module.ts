import { Module } from '@nestjs/common';
import { GuardsModule } from '../guards/guards.module';
import { CommentModuleBase } from './comments/comment.module.base';
import { LoanItemModuleBase } from './loan-items/loan-item.module.base';
import { OwnerModuleBase } from './owners/owner.module.base';
import { ProjectModuleBase } from './projects/project.module.base';
import { TaskModuleBase } from './tasks/task.module.base';

/** The generated side of every entity (their repositories) and the guards of .svcrc; your modules are in src/extensions/. */
@Module({
  imports: [GuardsModule, OwnerModuleBase, ProjectModuleBase, TaskModuleBase, CommentModuleBase, LoanItemModuleBase],
  exports: [GuardsModule, OwnerModuleBase, ProjectModuleBase, TaskModuleBase, CommentModuleBase, LoanItemModuleBase],
})
export class AutogenModule {}
