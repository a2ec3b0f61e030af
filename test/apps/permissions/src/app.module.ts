import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { SvcGuardsModule, SvcModule, type SvcrcV2 } from '@svc/nest';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';

/** The signing secret the tests mint tokens with. */
export const PERMISSIONS_JWT_SECRET = 'permissions-e2e-secret-0123456789abcdef0123456789abcdef';

type Entity = SvcrcV2['entities'][number];
/** `permissions` blocks by entity name. */
export type PermissionBlocks = Readonly<Record<string, NonNullable<Entity['permissions']>>>;

/**
 * The app of `test/apps/permissions` with the `permissions` given per entity (the generated code is
 * the same whatever they are: they are read from the schema when the app starts).
 */
export function permissionRulesAppModule(
  permissions: PermissionBlocks,
  options: { permissionsDefault?: 'allow' | 'deny'; put?: 'merge' | 'replace'; controllers?: Type<unknown>[] } = {},
) {
  return (env: Record<string, string>): DynamicModule => {
    @Module({ controllers: options.controllers ?? [] })
    class PermissionRulesAppModule {}
    const schema: SvcrcV2 = {
      ...svcSchema,
      auth: { ...svcSchema.auth, permissionsDefault: options.permissionsDefault ?? 'allow' },
      ...(options.put ? { api: { ...svcSchema.api, put: options.put } } : {}),
      entities: svcSchema.entities.map((entity) => (permissions[entity.name] ? { ...entity, permissions: permissions[entity.name] } : entity)),
    };
    return {
      module: PermissionRulesAppModule,
      imports: [
        SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: PERMISSIONS_JWT_SECRET } }),
        AutogenModule,
        ExtensionsModule,
        SvcGuardsModule.forRoot({ global: true }),
      ],
    };
  };
}
