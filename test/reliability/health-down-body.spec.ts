/**
 * `/health` with the database gone answers 503 in the error envelope (`error` is the reason phrase,
 * as for every error) with terminus' `status: "error"` and `details.database.message` beside it.
 * The database is made unreachable by dropping it (WITH FORCE), which leaves the shared
 * PostgreSQL server running.
 */
import { reliabilityAppModule } from '../apps/reliability/src/app.module';
import { POSTGRES_ADMIN_URL } from '../support/databases';
import { startApp } from '../support/start-app';
import { withClient } from './support/app-under-test';
import { agentFor } from './support/http-agent';

it('GET /health with the database gone: 503 envelope, status "error", details.database.message', async () => {
  const running = await startApp('postgres', reliabilityAppModule);
  try {
    const http = agentFor(running.app.getHttpServer());
    await http().get('/health').expect(200);
    const name = new URL(running.database.env.DATABASE_URL!).pathname.slice(1);
    await withClient(POSTGRES_ADMIN_URL, (c) => c.query(`DROP DATABASE "${name}" WITH (FORCE)`));
    const res = await http().get('/health');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', status: 'error' });
    expect(res.body.details?.database).toMatchObject({ status: 'down', message: expect.stringMatching(/Database unavailable|timeout/) });
  } finally {
    await running.close();
  }
}, 180_000);
