/**
 * The permissions app (Task is `realtime`) in its own process, for the change feed's kill-and-resume test.
 * Database settings come from the environment. Prints `READY <port>` once listening, or `FAILED <message>`.
 *
 * Run with: node -r test/reliability/support/register.js test/reliability/support/changes-server-main.ts
 */
import { NestFactory } from '@nestjs/core';
import { configureSvcApp } from '@svc/nest';
import { permissionRulesAppModule } from '../../apps/permissions/src/app.module';

async function main(): Promise<void> {
  const env: Record<string, string> = {};
  for (const key of ['DATABASE_TYPE', 'DATABASE_URL', 'PGLITE_DATA_DIR', 'DATABASE_SYNC']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  const app = await NestFactory.create(permissionRulesAppModule({})(env), { logger: ['error'] });
  configureSvcApp(app, { docs: false });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : address}\n`);
}

main().catch((error: unknown) => {
  process.stdout.write(`FAILED ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
