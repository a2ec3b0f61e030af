import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { SvcModule } from '@svc/nest';
import type { ServiceModel } from '../../../../lib/schema/model';
import { parseSvcrc } from '../../../../lib/schema/parse-svcrc';
import { SvcrcError } from '../../../../lib/schema/svcrc.errors';
import { AutogenModule } from './autogen/autogen.module';
import { svcSchema } from './autogen/svc.schema';
import { ExtensionsModule } from './extensions/extensions.module';
import { fakeAuth } from './extensions/fake-auth.middleware';
import { NoteModule } from './extensions/notes/note.module';
import { SlowController } from './extensions/slow.controller';

/** Changes to the generated model a scenario needs (`api.rateLimit`, `auth`, ...). */
export interface OpsModelOverrides {
  api?: Partial<ServiceModel['api']>;
  auth?: ServiceModel['auth'];
}

/** The model of `test/apps/ops` with `overrides` applied. */
export function opsModel(overrides: OpsModelOverrides = {}): ServiceModel {
  const parsed = parseSvcrc(JSON.stringify(svcSchema));
  if (!parsed.ok) throw new SvcrcError(parsed.problems);
  const svcModel = parsed.model;
  return {
    ...svcModel,
    api: { ...svcModel.api, ...overrides.api },
    auth: overrides.auth === undefined ? svcModel.auth : overrides.auth,
  };
}

/** The app of `test/apps/ops` on the database described by `env` (default `process.env`). */
export function opsAppModule(env?: Record<string, string | undefined>, overrides: OpsModelOverrides = {}): DynamicModule {
  @Module({ imports: [NoteModule], controllers: [SlowController] })
  class OpsExtensionsModule implements NestModule {
    configure(consumer: MiddlewareConsumer): void {
      consumer.apply(fakeAuth).forRoutes('{*path}');
    }
  }
  @Module({})
  class OpsAppModule {}
  return {
    module: OpsAppModule,
    imports: [SvcModule.forRoot({ schema: opsModel(overrides), env }), AutogenModule, ExtensionsModule, OpsExtensionsModule],
  };
}
