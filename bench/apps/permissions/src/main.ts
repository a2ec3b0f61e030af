import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { configureSvcApp, svcFastifyOptions } from '@svc/nest';
import { AppModule } from './app.module';

/** A generated project's main.ts (`svc init`, Fastify), as bench/apps/ours/src/main.ts. */
async function bootstrap() {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(svcFastifyOptions()), {
    logger: ['error', 'warn'],
  });
  configureSvcApp(app);
  await app.listen(Number(process.env.PORT ?? 3305), '127.0.0.1');
}
void bootstrap();
