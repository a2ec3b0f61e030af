import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CommentController } from '../extensions/comments/comment.controller';
import { CommentService } from '../extensions/comments/comment.service';
import { LoanItemController } from '../extensions/loan-items/loan-item.controller';
import { LoanItemService } from '../extensions/loan-items/loan-item.service';
import { OwnerController } from '../extensions/owners/owner.controller';
import { OwnerService } from '../extensions/owners/owner.service';
import { ProjectController } from '../extensions/projects/project.controller';
import { ProjectService } from '../extensions/projects/project.service';
import { TaskController } from '../extensions/tasks/task.controller';
import { TaskService } from '../extensions/tasks/task.service';
import { GuardsModule } from '../guards/guards.module';
import { Comment } from './comments/comment.entity';
import { CommentServiceBase } from './comments/comment.service.base';
import { LoanItem } from './loan-items/loan-item.entity';
import { LoanItemServiceBase } from './loan-items/loan-item.service.base';
import { Owner } from './owners/owner.entity';
import { OwnerServiceBase } from './owners/owner.service.base';
import { Project } from './projects/project.entity';
import { ProjectServiceBase } from './projects/project.service.base';
import { Task } from './tasks/task.entity';
import { TaskServiceBase } from './tasks/task.service.base';

@Module({
  imports: [TypeOrmModule.forFeature([Owner, Project, Task, Comment, LoanItem]), GuardsModule],
  controllers: [OwnerController, ProjectController, TaskController, CommentController, LoanItemController],
  providers: [
    OwnerService,
    ProjectService,
    TaskService,
    CommentService,
    LoanItemService,
    { provide: OwnerServiceBase, useExisting: OwnerService },
    { provide: ProjectServiceBase, useExisting: ProjectService },
    { provide: TaskServiceBase, useExisting: TaskService },
    { provide: CommentServiceBase, useExisting: CommentService },
    { provide: LoanItemServiceBase, useExisting: LoanItemService },
  ],
  exports: [
    TypeOrmModule,
    OwnerService,
    ProjectService,
    TaskService,
    CommentService,
    LoanItemService,
    OwnerServiceBase,
    ProjectServiceBase,
    TaskServiceBase,
    CommentServiceBase,
    LoanItemServiceBase,
  ],
})
export class AutogenModule {}
