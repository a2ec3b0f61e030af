export { DATABASE_HEALTH_TIMEOUT_MS, DatabaseHealthIndicator } from './database.health';
export { HealthController } from './health.controller';
export { HealthModule } from './health.module';
