import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from './database.health';
import { HealthController } from './health.controller';

/** `GET /health`. Needs the default TypeORM data source (`TypeOrmModule.forRoot*`) in the application. */
@Module({
  imports: [TerminusModule],
  controllers: [HealthController],
  providers: [DatabaseHealthIndicator],
  exports: [DatabaseHealthIndicator],
})
export class HealthModule {}
