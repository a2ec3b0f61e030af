import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GuardsModule } from '../guards/guards.module';
import { OwnerController } from './owners/owner.controller';
import { Owner } from './owners/owner.entity';
import { OwnerService } from './owners/owner.service';
import { ProjectController } from './projects/project.controller';
import { Project } from './projects/project.entity';
import { ProjectService } from './projects/project.service';
import { TaskController } from './tasks/task.controller';
import { Task } from './tasks/task.entity';
import { TaskService } from './tasks/task.service';
import { CommentController } from './comments/comment.controller';
import { Comment } from './comments/comment.entity';
import { CommentService } from './comments/comment.service';
import { LoanItemController } from './loan-items/loan-item.controller';
import { LoanItem } from './loan-items/loan-item.entity';
import { LoanItemService } from './loan-items/loan-item.service';

@Module({
  imports: [TypeOrmModule.forFeature([Owner, Project, Task, Comment, LoanItem]), GuardsModule],
  controllers: [OwnerController, ProjectController, TaskController, CommentController, LoanItemController],
  providers: [OwnerService, ProjectService, TaskService, CommentService, LoanItemService],
  exports: [TypeOrmModule, OwnerService, ProjectService, TaskService, CommentService, LoanItemService],
})
export class AutogenModule {}
