import { type DynamicModule, Injectable, Module } from '@nestjs/common';
import { join } from 'node:path';
import { SvcModule } from '@svc/nest';
import { AutogenModule } from '../apps/crud/src/autogen/autogen.module';
import { ExtensionsModule } from '../apps/crud/src/extensions/extensions.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

@Injectable()
class AppConfig {
  constructor(readonly env: Record<string, string>) {}
}

/** The crud test app, with SvcModule's options coming from an injected provider. */
function asyncAppModule(env: Record<string, string>): DynamicModule {
  @Module({ providers: [{ provide: AppConfig, useValue: new AppConfig(env) }], exports: [AppConfig] })
  class ConfigModule {}

  @Module({})
  class AsyncAppModule {}

  return {
    module: AsyncAppModule,
    imports: [
      SvcModule.forRootAsync({
        imports: [ConfigModule],
        inject: [AppConfig],
        useFactory: (config: AppConfig) => ({ schema: join(__dirname, '..', 'apps', 'crud', '.svcrc'), env: config.env }),
      }),
      AutogenModule,
      ExtensionsModule,
    ],
  };
}

describe.each(DATABASE_KINDS)('SvcModule.forRootAsync (%s)', (kind) => {
  let running: RunningApp;
  beforeAll(async () => {
    running = await startApp(kind, asyncAppModule);
  });
  afterAll(() => running?.close());

  it('takes its options from a factory with injected dependencies', async () => {
    const http = httpClient(running.app);
    await http().post('/loan-items').send({ label: 'async' }).expect(201);
    const res = await http().get('/loan-items?filter=label||$eq||async').expect(200);
    expect(res.body.total).toBe(1);
    await http().get('/health').expect(200);
  });
});
