/**
 * The runtime's parts are Nest providers: `overrideProvider()` on the testing module replaces one,
 * and the CRUD routes then run through the replacement.
 */
import type { DomainEventAction } from '@svc/nest';
import { DomainEventPublisher, EntityPlans, ReadExecutor, SqlExecutor } from '@svc/nest/testing';
import type { EntityModel } from '../../lib/schema/model';
import type { WriteChange } from '../../lib/sql/write.executor';
import { opsAppModule } from '../apps/ops/src/app.module';
import { DATABASE_KINDS } from '../support/databases';
import { httpClient } from '../support/http';
import { type RunningApp, startApp } from '../support/start-app';

/** An event publisher that records instead of emitting. */
class RecordingPublisher extends DomainEventPublisher {
  readonly published: { entity: string; action: DomainEventAction; records: Record<string, unknown>[] }[] = [];

  constructor() {
    super(null);
  }

  override enabled(entity: EntityModel): boolean {
    return entity.events;
  }

  override publish(entity: EntityModel, action: DomainEventAction, changes: readonly WriteChange[]): void {
    this.published.push({ entity: entity.name, action, records: changes.map((change) => change.record) });
  }
}

/** A reader that counts list queries and hides every row from get-one. */
class CountingReader extends ReadExecutor {
  lists = 0;

  override list(...args: Parameters<ReadExecutor['list']>): ReturnType<ReadExecutor['list']> {
    this.lists += 1;
    return super.list(...args);
  }

  override async one(): Promise<Record<string, unknown> | null> {
    return null;
  }
}

describe.each(DATABASE_KINDS)('runtime parts replaced through overrideProvider (%s)', (kind) => {
  let running: RunningApp;
  let http: ReturnType<typeof httpClient>;
  const publisher = new RecordingPublisher();
  let reader: CountingReader;

  beforeAll(async () => {
    running = await startApp(kind, (env) => opsAppModule(env), 'express', (builder) =>
      builder
        .overrideProvider(DomainEventPublisher)
        .useValue(publisher)
        .overrideProvider(ReadExecutor)
        .useFactory({
          inject: [SqlExecutor, EntityPlans],
          factory: (executor: SqlExecutor, plans: EntityPlans) => (reader = new CountingReader(executor, plans)),
        }),
    );
    http = httpClient(running.app);
  });
  afterAll(() => running?.close());

  it('publishes the domain events of a write through the replacement publisher', async () => {
    const res = await http().post('/loan-items').set('X-Test-User', 'u-1').send({ code: `P-${kind}`, label: 'Saw', price: 3 }).expect(201);
    // As answered over HTTP: the recorded rows serialized the same way.
    const published = JSON.parse(JSON.stringify(publisher.published)) as unknown;
    expect(published).toEqual([{ entity: 'LoanItem', action: 'created', records: [res.body as Record<string, unknown>] }]);
  });

  it('reads through the replacement reader', async () => {
    const before = reader.lists;
    const list = await http().get('/loan-items').set('X-Test-User', 'u-1').expect(200);
    expect(reader.lists).toBe(before + 1);
    const body = list.body as { id: number }[] | { data: { id: number }[] };
    const [first] = Array.isArray(body) ? body : body.data;
    expect(first).toEqual(expect.objectContaining({ label: 'Saw' }));
    // The replacement's get-one finds nothing, even for the row the list just returned.
    await http().get(`/loan-items/${first.id}`).set('X-Test-User', 'u-1').expect(404);
  });
});
