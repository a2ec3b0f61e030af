import { NestFactory } from '@nestjs/core';
import { configureSvcApp } from '@svc/nest';
import { AppModule } from './app.module';

/** The main.ts of `svc init --adapter express`: the same application on Nest's Express adapter. */
async function bootstrap() {
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  configureSvcApp(app);
  await app.listen(Number(process.env.PORT ?? 3304), '127.0.0.1');
}
void bootstrap();
