import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { configureSvcApp, svcFastifyOptions } from '@svc/nest';
import { AppModule } from './app.module';

/** A generated project's main.ts (`svc init`, Fastify by default); start-up logs limited to warnings and errors, as in the reference app. */
async function bootstrap() {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(svcFastifyOptions()), {
    logger: ['error', 'warn'],
  });
  configureSvcApp(app);
  await app.listen(Number(process.env.PORT ?? 3301), '127.0.0.1');
}
void bootstrap();
