/**
 * A reliability app in its own process, for the tests that kill it or open its
 * PGlite folder twice. Database settings come from the environment
 * (`DATABASE_TYPE`, `DATABASE_URL`, `PGLITE_DATA_DIR`, `DATABASE_SYNC`).
 * Prints `READY <port>` once listening, or `FAILED <message>` and exits 1.
 *
 * Run with: node -r test/reliability/support/register.js test/reliability/support/server-main.ts
 */
import { NestFactory } from '@nestjs/core';
import { configureSvcApp } from '@svc/nest';
import { reliabilityAppModule } from '../../apps/reliability/src/app.module';

async function main(): Promise<void> {
  const env: Record<string, string> = {};
  for (const key of ['DATABASE_TYPE', 'DATABASE_URL', 'PGLITE_DATA_DIR', 'DATABASE_SYNC']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  const poolMax = process.env.RELIABILITY_POOL_MAX ? Number(process.env.RELIABILITY_POOL_MAX) : undefined;
  const app = await NestFactory.create(reliabilityAppModule(env, { poolMax }), { logger: ['error'] });
  configureSvcApp(app, { docs: false });
  await app.listen(Number(process.env.RELIABILITY_PORT ?? 0), '127.0.0.1');
  const address = app.getHttpServer().address();
  process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : address}\n`);
}

main().catch((error: unknown) => {
  process.stdout.write(`FAILED ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
