import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import {
  OrganizationController,
  OrganizationService,
  ProjectController,
  ProjectService,
  TaskController,
  TaskService,
} from './crud';
import { Organization, Project, Task } from './entities';

const entities = [Organization, Project, Task];

/** Same database, same pool size (20) as `ours`. */
@Module({
  imports: [
    TypeOrmModule.forRoot({
      type: 'postgres',
      url: process.env.DATABASE_URL,
      entities,
      synchronize: false,
      logging: false,
      extra: { max: 20 },
    }),
    TypeOrmModule.forFeature(entities),
  ],
  controllers: [OrganizationController, ProjectController, TaskController],
  providers: [OrganizationService, ProjectService, TaskService],
})
export class AppModule {}
