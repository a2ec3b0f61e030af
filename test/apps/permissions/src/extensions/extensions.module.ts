import { Module } from '@nestjs/common';
import { CommentModule } from './comments/comment.module';
import { MembershipModule } from './memberships/membership.module';
import { OrganizationModule } from './organizations/organization.module';
import { ProjectModule } from './projects/project.module';
import { TaskModule } from './tasks/task.module';
import { UserModule } from './users/user.module';

/**
 * Your modules, which the app module imports. This file is yours: `svc generate` created it once,
 * and only adds the module of an entity new in .svcrc to `imports` (as `nest g resource` does).
 * Register your own controllers, providers and modules here.
 */
@Module({
  imports: [OrganizationModule, UserModule, MembershipModule, ProjectModule, TaskModule, CommentModule],
})
export class ExtensionsModule {}
