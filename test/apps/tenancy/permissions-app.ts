import { Controller, type DynamicModule, Module, Param, Post } from '@nestjs/common';
import { CrudEntity, CrudOperation, ParseIntIdPipe, SkipScopeCheck, SvcGuardsModule, SvcModule, type SvcrcV2 } from '@svc/nest';
import { DataSource } from 'typeorm';
import { AutogenModule } from './src/autogen/autogen.module';
import { ExtensionsModule } from './src/extensions/extensions.module';
import { ProjectModule } from './src/extensions/projects/project.module';
import { PublicProjectsController } from './src/extensions/extension-controllers';
import { svcSchema } from './src/autogen/svc.schema';
import { TENANCY_JWT_SECRET } from './src/app.module';

/**
 * "Members edit only via update, viewers only read, only managers delete", in `.svcrc` alone. `creator`
 * only creates (with `viewer`, a union); `superadmin` is a `bypassRoles` role of Project that may read
 * and update there, never delete.
 */
export const PERMISSIONS = {
  Task: {
    viewer: { read: true },
    member: { read: true, update: true, delete: false },
    manager: { read: true, create: true, update: true, delete: true },
    creator: { create: true },
  },
  Project: {
    '*': { read: true },
    manager: { read: true, create: true, update: true, delete: true },
    superadmin: { read: true, update: true },
  },
} as const;

/**
 * A custom route declaring `@CrudOperation('update')` that writes with its own SQL, not through
 * `CrudService`: the guard alone must refuse it before it runs.
 */
@CrudEntity('Task')
@Controller('task-actions')
class TaskActionsController {
  constructor(private readonly dataSource: DataSource) {}

  @CrudOperation('update')
  @Post(':id/shout')
  async shout(@Param('id', ParseIntIdPipe) id: number) {
    await this.dataSource.query(`UPDATE "tasks" SET "title" = upper("title") WHERE "id" = $1`, [id]);
    return { shouted: id };
  }

  /** Skips the scope check, not the permissions. */
  @SkipScopeCheck()
  @CrudOperation('delete')
  @Post(':id/purge')
  async purge(@Param('id', ParseIntIdPipe) id: number) {
    await this.dataSource.query(`DELETE FROM "tasks" WHERE "id" = $1`, [id]);
    return { purged: id };
  }
}

/** The tenancy app with both guards global and the permissions above (and `auth.permissionsDefault` as given). */
export function permissionsAppModule(permissionsDefault: 'allow' | 'deny' = 'allow') {
  return (env: Record<string, string>): DynamicModule => {
    @Module({})
    class PermissionsAppModule {}
    @Module({ imports: [ProjectModule], controllers: [PublicProjectsController, TaskActionsController] })
    class PermissionRoutesModule {}
    const schema: SvcrcV2 = {
      ...svcSchema,
      auth: { ...svcSchema.auth, permissionsDefault },
      entities: svcSchema.entities.map((entity) =>
        entity.name in PERMISSIONS ? { ...entity, permissions: PERMISSIONS[entity.name as keyof typeof PERMISSIONS] } : entity,
      ),
    };
    return {
      module: PermissionsAppModule,
      imports: [
        SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: TENANCY_JWT_SECRET } }),
        AutogenModule,
        ExtensionsModule,
        PermissionRoutesModule,
        SvcGuardsModule.forRoot({ global: true }),
      ],
    };
  };
}
