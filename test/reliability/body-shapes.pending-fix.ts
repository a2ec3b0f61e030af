/**
 * PENDING FIX (not run by `npm test`: jest's testMatch is `**\/*.spec.ts`). Fails on the current lib.
 * Run: node --experimental-vm-modules node_modules/jest/bin/jest.js --testMatch '**\/body-shapes.pending-fix.ts' test/reliability
 *
 * Bug 1: a deeply nested JSON body (arrays or objects ~5,000 levels deep, 10 KB; well under the
 * body limit) answers 500: class-transformer's recursive TransformOperationExecutor.transform
 * (called by SvcValidationPipe → ValidationPipe.transform, `transform: true`) overflows the stack
 * (RangeError: Maximum call stack size exceeded). Any property does it, a `json` field or an
 * unknown one; 100,000 levels cost ~1.5 s of CPU before the 500.
 * Fix: lib/validation/svc-validation.pipe.ts, SvcValidationPipe.transform: measure the body's
 * nesting iteratively before super.transform and answer 400 ("body: nested deeper than N levels")
 * above a bound (say 64, or the `s` limit's spirit); PostgreSQL's jsonb refuses very deep values
 * too (stack depth limit, 54001), so the bound should sit below that.
 *
 * Bug 2: README "Unknown body properties: 400 (mass assignment must be impossible)", but
 * `__proto__` and `constructor` keys are silently dropped (201) instead of refused, unlike any
 * other unknown key (`{"ref":"x","amount":1,"foo":1}` is a 400). Nothing is stored or polluted as
 * far as the answers show; the fix is to report them as unknown properties like the rest (check
 * own keys of the parsed body, e.g. Object.keys, before class-transformer drops them).
 */
import { startSeededApp, type SeededApp } from './support/app-under-test';

const DEPTHS = [5_000, 20_000, 100_000];

describe.each(['pglite', 'postgres'] as const)('body shapes (%s)', (kind) => {
  let app: SeededApp;

  beforeAll(async () => {
    app = await startSeededApp(kind, 11, 4);
  }, 120_000);
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
