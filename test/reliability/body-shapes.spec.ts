/**
 * Bodies nested deeper than 64 levels, and own `__proto__`/`constructor` keys, answer 400 in the
 * envelope (lib/validation/svc-validation.pipe.ts). Seen failing before: 500 from class-transformer's
 * stack overflow, and 201 with those keys silently dropped.
 */
import { startSeededApp, type SeededApp } from './support/app-under-test';

const DEPTHS = [5_000, 20_000, 100_000];

describe.each(['pglite', 'postgres'] as const)('body shapes (%s)', (kind) => {
  let app: SeededApp;

  beforeAll(async () => {
    app = await startSeededApp(kind, 11, 4);
  }, 180_000);
  afterAll(() => app?.running.close());

  const post = (path: string, text: string) => app.http().post(path).set('Content-Type', 'application/json').send(text);
  const item = '{"title":"t","qty":1,"weight":"1","active":true,"kind":"alpha","startsAt":"2026-01-01","data":';

  it.each(DEPTHS)('refuses a body nested %i levels deep with 400 (or 413), not 500', async (depth) => {
    const started = Date.now();
    const arrays = await post('/items', `${item}${'['.repeat(depth)}${']'.repeat(depth)}}`);
    const objects = await post('/items', `${item}${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`);
    const unknown = await post('/ledgers', `{"ref":"deep","amount":1,"x":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    expect([arrays.status, objects.status, unknown.status].map((s) => (s === 400 || s === 413 ? 'refused' : s))).toEqual([
      'refused',
      'refused',
      'refused',
    ]);
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it.each(['__proto__', 'constructor'])('refuses the unknown body property %s with 400, as any other', async (key) => {
    await post('/ledgers', '{"ref":"u1","amount":1,"foo":1}').expect(400);
    const res = await post('/ledgers', `{"ref":"u2-${key}","amount":1,"${key}":{"admin":true}}`);
    expect(res.status).toBe(400);
  });
});
