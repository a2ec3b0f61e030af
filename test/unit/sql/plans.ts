/**
 * Entity plans of `test/apps/tenancy` and `test/apps/ops` built from their generated TypeORM entities without a database
 * (TypeORM builds metadata without connecting), and an executor that records statements instead
 * of running them. For SQL-text tests of the builders.
 */
import { resolveSchema } from '../../../lib/schema/resolve-schema';
import type { ServiceModel } from '../../../lib/schema/model';
import { DataSource } from 'typeorm';
import { parseQuery } from '../../../lib/query/parse-query';
import type { ValidatedQuery } from '../../../lib/query/query.types';
import { validateQuery } from '../../../lib/query/validate-query';
import { ALL_CELLS, type CellAccess } from '../../../lib/sql/cell-access';
import { EntityPlans } from '../../../lib/sql/entity-plan';
import type { SqlExecutor } from '../../../lib/sql/sql-executor';
import type { Statement } from '../../../lib/sql/statement';
import { LoanItem, Note as OpsNote, svcSchema as opsSchema } from '../../apps/ops/src/autogen';
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
} from '../../apps/tenancy/src/autogen';

export interface AppPlans {
  readonly model: ServiceModel;
  readonly plans: EntityPlans;
  /** `?<query>` on `entity` as the CRUD service validates it. */
  query(entity: string, queryString?: string): ValidatedQuery;
}

/** Tenancy: scoped entities, dotted scope paths, soft delete, joins. */
export function tenancyPlans(): Promise<AppPlans> {
  return appPlans(svcSchema, [Organization, User, Membership, Session, Project, Task, Comment, Note, Invoice, Announcement]);
}

/** Ops: `LoanItem` with timestamps, soft delete and events. */
export function opsPlans(): Promise<AppPlans> {
  return appPlans(opsSchema, [LoanItem, OpsNote]);
}

async function appPlans(schema: Parameters<typeof resolveSchema>[0], entityClasses: Function[]): Promise<AppPlans> {
  const model = resolveSchema(schema);
  const dataSource = new DataSource({ type: 'postgres', entities: entityClasses });
  // Metadata only: `initialize()` would connect.
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  const entities = new Map(model.entities.map((entity) => [entity.name, entity]));
  const plans = new EntityPlans(dataSource, entities);
  return {
    model,
    plans,
    query: (entity, queryString = '') => validateQuery(parseQuery(queryString), entities.get(entity)!, entities, model.api.pagination),
  };
}

/** A `SqlExecutor` that records each statement and answers with `answer` (no rows by default). */
export class RecordingExecutor {
  readonly statements: Statement[] = [];

  constructor(private readonly answer: (statement: Statement) => unknown[] = () => []) {}

  async rows(statement: Statement): Promise<unknown[][]> {
    this.statements.push(statement);
    return this.answer(statement) as unknown[][];
  }

  async records(statement: Statement): Promise<Record<string, unknown>[]> {
    this.statements.push(statement);
    return this.answer(statement) as Record<string, unknown>[];
  }

  async transaction<T>(work: (connection: never) => Promise<T>): Promise<T> {
    return work(undefined as never);
  }

  escape(identifier: string): string {
    return `"${identifier}"`;
  }

  /** A caller without field rules: every cell readable, as `SqlExecutor` without `readingAs()`. */
  readonly cells: CellAccess = ALL_CELLS;

  /** Typed as the executor the builders take. */
  asExecutor(): SqlExecutor {
    return this as unknown as SqlExecutor;
  }

  /** The statements so far, as `text` + `values`, then forgets them. */
  take(): { text: string; values: readonly unknown[] }[] {
    const taken = this.statements.map(({ text, values }) => ({ text, values: [...values] }));
    this.statements.length = 0;
    return taken;
  }
}
