/**
 * `test/apps/permissions` with its admin served at /_admin from `admin/dist` (`api.admin`), for the admin browser
 * specs: each passes the changes its schema needs (permission blocks, CORS, counts).
 */
import { type DynamicModule, Module } from '@nestjs/common';
import { SvcGuardsModule, SvcModule, type SvcrcV2 } from '@svc/nest';
import { DataSource } from 'typeorm';
import { PERMISSIONS_JWT_SECRET, type PermissionBlocks } from '../../apps/permissions/src/app.module';
import { AutogenModule } from '../../apps/permissions/src/autogen/autogen.module';
import { svcSchema } from '../../apps/permissions/src/autogen/svc.schema';
import { ExtensionsModule } from '../../apps/permissions/src/extensions/extensions.module';
import type { RunningApp } from '../../support/start-app';

export interface PermissionsAdminOptions {
  /** Permission blocks by entity name, under `permissionsDefault: "allow"`; none keeps the app's `.svcrc`. */
  readonly blocks?: PermissionBlocks;
  /** More of `api` (`cors`, `pagination`...). */
  readonly api?: Partial<SvcrcV2['api']>;
}

/** The module factory `startApp` takes. */
export function permissionsAdminApp(options: PermissionsAdminOptions = {}): (env: Record<string, string>) => DynamicModule {
  return (env) => {
    @Module({})
    class PermissionsAdminModule {}
    const blocks = options.blocks;
    const schema: SvcrcV2 = {
      ...svcSchema,
      ...(blocks ? { auth: { ...svcSchema.auth, permissionsDefault: 'allow' } } : {}),
      api: { ...svcSchema.api, admin: { dir: 'admin' }, ...options.api },
      entities: blocks ? svcSchema.entities.map((entity) => (blocks[entity.name] ? { ...entity, permissions: blocks[entity.name] } : entity)) : svcSchema.entities,
    } as SvcrcV2;
    return {
      module: PermissionsAdminModule,
      imports: [
        SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: PERMISSIONS_JWT_SECRET } }),
        AutogenModule,
        ExtensionsModule,
        SvcGuardsModule.forRoot({ global: true }),
      ],
    };
  };
}

/** Makes `user`'s memberships `manager` (the generated Membership.role enum has owner/member; the specs speak of managers). */
export async function makeManager(running: RunningApp, user: number): Promise<void> {
  const data = running.app.get(DataSource);
  const [column] = (await data.query(
    `SELECT udt_name FROM information_schema.columns WHERE table_name = 'memberships' AND column_name = 'role'`,
  )) as { udt_name: string }[];
  await data.query(`ALTER TYPE "${column!.udt_name}" ADD VALUE IF NOT EXISTS 'manager'`);
  await data.query(`UPDATE "memberships" SET "role" = $1 WHERE "userId" = $2`, ['manager', user]);
}
