import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureSvcApp } from '@svc/nest';
import { Client } from 'pg';
import { type ReliabilityAppOptions, reliabilityAppModule } from '../../apps/reliability/src/app.module';
import { type RunningApp, startApp } from '../../support/start-app';
import { planDataset, seedThroughHttp, type Store } from './dataset';
import { agentFor, type Agent } from './http-agent';

export interface SeededApp {
  readonly running: RunningApp;
  readonly http: Agent;
  readonly store: Store;
  /** Whether the database orders text by code point (C / C.UTF-8 collation), as the oracle does. */
  readonly codePointCollation: boolean;
}

/** The reliability app, in process, on a fresh database of `kind`, seeded through its API. */
export async function startSeededApp(kind: 'pglite' | 'postgres', seed: number, items = 60): Promise<SeededApp> {
  const running = await startApp(kind, reliabilityAppModule);
  try {
    const http = agentFor(running.app.getHttpServer());
    const store = await seedThroughHttp(http, planDataset(seed, items));
    let codePointCollation = true;
    if (kind === 'postgres') {
      const collation = await withClient(running.database.env.DATABASE_URL!, (c) =>
        c.query<{ datcollate: string }>('SELECT datcollate FROM pg_database WHERE datname = current_database()'),
      );
      codePointCollation = /^(C|POSIX|C\.UTF-?8)$/i.test(collation.rows[0]!.datcollate);
    }
    return { running, http, store, codePointCollation };
  } catch (error) {
    await running.close();
    throw error;
  }
}

export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface InProcessApp {
  readonly app: INestApplication;
  readonly http: Agent;
  close(): Promise<void>;
}

/** The reliability app, in process, on the database `env` describes (not created or dropped here). */
export async function startInProcess(env: Record<string, string>, options: ReliabilityAppOptions = {}): Promise<InProcessApp> {
  const moduleRef = await Test.createTestingModule({ imports: [reliabilityAppModule(env, options)] }).compile();
  const app = moduleRef.createNestApplication({ logger: ['error'] });
  configureSvcApp(app, { docs: false });
  await app.init();
  return { app, http: agentFor(app.getHttpServer()), close: () => app.close() };
}
