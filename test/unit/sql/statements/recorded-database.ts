/**
 * The real `SqlExecutor` over a pool that records each statement instead of sending it, with the
 * TypeORM metadata of `test/apps/tenancy` and of the runtime's own tables (built without a database).
 * The statements a store or service sends, exactly as PostgreSQL would receive them.
 */
import { DataSource } from 'typeorm';
import { authEntities } from '../../../../lib/auth/auth.entities';
import { SvcIdempotencyKey } from '../../../../lib/idempotency/idempotency-key.entity';
import { resolveSchema } from '../../../../lib/schema/resolve-schema';
import type { ServiceModel } from '../../../../lib/schema/model';
import { EntityPlans } from '../../../../lib/sql/entity-plan';
import type { PgPool, PgQueryConfig } from '../../../../lib/sql/pool-query';
import { SqlExecutor } from '../../../../lib/sql/sql-executor';
import {
  Announcement,
  Comment,
  Invoice,
  Membership,
  Note,
  Organization,
  Project,
  Session,
  svcSchema,
  Task,
  User,
} from '../../../apps/tenancy/src/autogen';

export interface RecordedDatabase {
  readonly model: ServiceModel;
  readonly plans: EntityPlans;
  readonly executor: SqlExecutor;
  /** The statements sent so far (text and values), then forgets them. */
  take(): { text: string; values: unknown[] }[];
  /** What the next statements answer (rows as objects, or as arrays for `rows()`); none by default. */
  answer(rows: (config: PgQueryConfig) => unknown[]): void;
}

export async function recordedDatabase(): Promise<RecordedDatabase> {
  const model = resolveSchema(svcSchema);
  const dataSource = new DataSource({
    type: 'postgres',
    entities: [
      ...[Organization, User, Membership, Session, Project, Task, Comment, Note, Invoice, Announcement],
      ...authEntities(model.auth),
      SvcIdempotencyKey,
    ],
  });
  // Metadata only: `initialize()` would connect.
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  const sent: PgQueryConfig[] = [];
  let answer: (config: PgQueryConfig) => unknown[] = () => [];
  const pool: PgPool = {
    connect: async () => ({
      query: async (config) => {
        sent.push(config);
        return { rows: answer(config) };
      },
      release: () => undefined,
      on: () => undefined,
      off: () => undefined,
    }),
  };
  (dataSource.driver as unknown as { master: PgPool }).master = pool;
  return {
    model,
    plans: new EntityPlans(dataSource, new Map(model.entities.map((entity) => [entity.name, entity]))),
    executor: new SqlExecutor(dataSource, false),
    take: () => sent.splice(0).map(({ text, values }) => ({ text, values })),
    answer: (rows) => (answer = rows),
  };
}
