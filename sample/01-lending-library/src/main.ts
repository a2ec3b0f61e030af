import { NestFactory } from '@nestjs/core';
import { configureSvcApp } from '@svc/nest';
import { AppModule } from './app.module';

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  configureSvcApp(app, { title: 'Lending library' });
  await app.listen(process.env.APP_PORT ?? process.env.PORT ?? 3100);
}
void bootstrap();
