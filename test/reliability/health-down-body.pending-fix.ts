/**
 * PENDING FIX (not run by `npm test`: jest's testMatch is `**\/*.spec.ts`). Fails on the current lib.
 * Run: node --experimental-vm-modules node_modules/jest/bin/jest.js --testMatch '**\/*.pending-fix.ts' test/reliability
 *
 * Bug: README ("Health check"): when the database does not answer, `/health` is 503, `status` is
 * `error` and `error.database.message` says `Database unavailable`. The body actually is
 * `{ statusCode: 503, message: "Service Unavailable", error: "Service Unavailable", status: "error",
 *    info: {}, details: { database: { status: "down", message: "Database unavailable" } } }`:
 * lib/filters/svc-exception.filter.ts, fromHttpException, destructures `error` out of terminus'
 * exception response ({ status, info, error, details }) and, since it is not a string, replaces it
 * with the reason phrase, so `error.database` is lost (it survives only under `details`).
 * Fix: let the health check's body through (e.g. in fromHttpException keep a non-string `error`
 * object as it is when the response has `status: "error"`, or have HealthController set 503 and
 * return terminus' result itself), keeping `statusCode`/`message` for the envelope if wanted.
 *
 * Seen the same way on the throwaway cluster stopped under load (faults-postgres.spec.ts);
 * here the database is made unreachable by dropping it (WITH FORCE), which leaves the shared
 * PostgreSQL server running.
 */
import { reliabilityAppModule } from '../apps/reliability/src/app.module';
import { POSTGRES_ADMIN_URL } from '../support/databases';
import { startApp } from '../support/start-app';
import { withClient } from './support/app-under-test';
import { agentFor } from './support/http-agent';

it('GET /health with the database gone: 503, status "error", error.database.message', async () => {
  const running = await startApp('postgres', reliabilityAppModule);
  try {
    const http = agentFor(running.app.getHttpServer());
    await http().get('/health').expect(200);
    const name = new URL(running.database.env.DATABASE_URL!).pathname.slice(1);
    await withClient(POSTGRES_ADMIN_URL, (c) => c.query(`DROP DATABASE "${name}" WITH (FORCE)`));
    const res = await http().get('/health');
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('error');
    expect(res.body.error?.database?.message).toMatch(/Database unavailable|timeout/);
  } finally {
    await running.close();
  }
}, 60_000);
