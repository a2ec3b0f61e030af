import assert from 'node:assert/strict';
import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { configureSvcApp, SvcModule } from '@svc/nest';
import { ExtensionsModule } from '../../extensions/extensions.module';
import { smokeHeaders } from '../../extensions/smoke-setup';
import { AutogenModule } from '../autogen.module';
import { svcSchema } from '../svc.schema';

/** Signs the smoke tests' tokens; the app under test trusts it, and no other app does. */
const SMOKE_JWT_SECRET = 'smoke-tests-only-secret-0123456789abcdef0123456789abcdef';

/** The app under test: an in-memory PGlite database whose tables follow the entities. */
const SMOKE_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  DATABASE_TYPE: 'pglite',
  PGLITE_DATA_DIR: 'memory',
  DATABASE_SYNC: 'true',
  JWT_SECRET: SMOKE_JWT_SECRET,
};

@Module({
  imports: [SvcModule.forRoot({ schema: svcSchema, env: { ...process.env, ...SMOKE_ENV } }), AutogenModule, ExtensionsModule],
})
class SmokeAppModule {}

export type Row = Record<string, unknown>;

export interface SmokeResponse {
  readonly status: number;
  readonly body: unknown;
}

/** Unique values across the whole run, so that unique columns never collide. */
let sequence = 0;

/** A client of the app under test that checks each answer. */
export class SmokeClient {
  constructor(private readonly baseUrl: string) {}

  text(label: string): string {
    return `smoke ${label} ${++sequence}`;
  }

  integer(): number {
    return ++sequence;
  }

  email(): string {
    return `smoke-${++sequence}@example.com`;
  }

  async request(method: string, path: string, body?: unknown): Promise<SmokeResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...smokeHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  }

  async create(path: string, body: Row): Promise<Row> {
    return asRow(expectStatus(await this.request('POST', path, body), [201], `POST ${path}`));
  }

  async expectListed(path: string, id: unknown): Promise<void> {
    const answer = expectStatus(await this.request('GET', `${path}?filter=id||$eq||${String(id)}`), [200], `GET ${path}`);
    const rows = Array.isArray(answer) ? answer : asRow(answer).data;
    assert.ok(Array.isArray(rows), `GET ${path}: no list in ${JSON.stringify(answer)}`);
    assert.deepEqual(
      rows.map((row) => asRow(row).id),
      [id],
    );
  }

  async get(path: string, id: unknown): Promise<Row> {
    return asRow(expectStatus(await this.request('GET', `${path}/${String(id)}`), [200], `GET ${path}/:id`));
  }

  async update(path: string, id: unknown, body: Row): Promise<Row> {
    return asRow(expectStatus(await this.request('PATCH', `${path}/${String(id)}`, body), [200], `PATCH ${path}/:id`));
  }

  async remove(path: string, id: unknown): Promise<void> {
    expectStatus(await this.request('DELETE', `${path}/${String(id)}`), [200, 204], `DELETE ${path}/:id`);
  }

  async expectGone(path: string, id: unknown): Promise<void> {
    expectStatus(await this.request('GET', `${path}/${String(id)}`), [404], `GET ${path}/:id after DELETE`);
  }
}

function expectStatus(response: SmokeResponse, expected: number[], what: string): unknown {
  assert.ok(expected.includes(response.status), `${what} answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

function asRow(value: unknown): Row {
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value), `expected an object, got ${JSON.stringify(value)}`);
  return value as Row;
}

let running: Promise<INestApplication> | undefined;

async function startApp(): Promise<INestApplication> {
  const app = await NestFactory.create(SmokeAppModule, { logger: ['error', 'warn'] });
  configureSvcApp(app);
  await app.listen(0, '127.0.0.1');
  return app;
}

/** A client of the app, started on first use and shared by every smoke test of the run. */
export async function smokeClient(): Promise<SmokeClient> {
  running ??= startApp();
  const app = await running;
  return new SmokeClient(await app.getUrl());
}

/** Stops the app (and its database); safe to call more than once. */
export async function stopSmokeApp(): Promise<void> {
  const app = running;
  running = undefined;
  if (app !== undefined) await (await app).close();
}
