import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { configureSvcApp, svcFastifyOptions } from '@svc/nest';
import { AppModule } from './app.module';

/** The main.ts of `svc init --adapter fastify`: the same application on Nest's Fastify adapter. */
async function bootstrap() {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(svcFastifyOptions()), {
    logger: ['error', 'warn'],
  });
  configureSvcApp(app);
  await app.listen(Number(process.env.PORT ?? 3304), '127.0.0.1');
}
void bootstrap();
