import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { configureSvcApp, svcFastifyOptions } from '@svc/nest';
import { svcLogLevels } from '../../../../lib/logging/log-levels';
import type { AddressInfo } from 'node:net';
import { opsAppModule, type OpsModelOverrides } from './app.module';

/**
 * The ops app as a real process, for the shutdown and production tests. `OPS_OVERRIDES`
 * (JSON) changes the model, `OPS_ADAPTER=fastify` runs it on Fastify; the port is sent to the
 * parent over IPC once listening.
 */
async function bootstrap(): Promise<void> {
  const overrides = JSON.parse(process.env.OPS_OVERRIDES ?? '{}') as OpsModelOverrides;
  const module = opsAppModule(undefined, overrides);
  const options = { logger: svcLogLevels() };
  // OPS_ADAPTER=fastify: the same app on Nest's Fastify adapter, as `svc init --adapter fastify` starts it.
  const app =
    process.env.OPS_ADAPTER === 'fastify'
      ? await NestFactory.create(module, new FastifyAdapter(svcFastifyOptions()), options)
      : await NestFactory.create(module, options);
  configureSvcApp(app, { docs: false });
  await app.listen(Number(process.env.APP_PORT ?? 0), '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  process.send?.({ listening: port });
}
void bootstrap();
