import { NestFactory } from '@nestjs/core';
import { configureSvcApp, svcLogLevels } from '@svc/nest';
import type { AddressInfo } from 'node:net';
import { opsAppModule, type OpsModelOverrides } from './app.module';

/**
 * The ops app as a real process, for the shutdown and production tests. `OPS_OVERRIDES`
 * (JSON) changes the model; the port is sent to the parent over IPC once listening.
 */
async function bootstrap(): Promise<void> {
  const overrides = JSON.parse(process.env.OPS_OVERRIDES ?? '{}') as OpsModelOverrides;
  const app = await NestFactory.create(opsAppModule(undefined, overrides), { logger: svcLogLevels() });
  configureSvcApp(app, { docs: false });
  await app.listen(Number(process.env.APP_PORT ?? 0), '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.send?.({ listening: port });
}
void bootstrap();
