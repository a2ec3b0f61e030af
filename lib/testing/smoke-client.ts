import assert from 'node:assert/strict';
import { SmokeChangeFeed } from './smoke-change-feed';

/** A row as the API answers it. */
export type Row = Record<string, unknown>;

/** An answer of the app under test: its status and its parsed JSON body. */
export interface SmokeResponse {
  readonly status: number;
  readonly body: unknown;
}

/** Signs an access token with these claims; `undefined` when the app has no `auth`. */
export type SmokeTokenSigner = (claims: Record<string, unknown>) => string;

/** Unique values across the whole run, so that unique columns never collide. */
let sequence = 0;

/** A client of the app under test that checks each answer, and on apps with `auth` sends a token. */
export class SmokeClient {
  private token: string | undefined;
  private readonly feeds = new Set<SmokeChangeFeed>();

  constructor(
    /** Where the app under test listens: `http://127.0.0.1:<port>`. */
    readonly baseUrl: string,
    private readonly headers: Readonly<Record<string, string>> = {},
    private readonly sign?: SmokeTokenSigner,
  ) {
    this.token = sign?.({});
  }

  /** From now on, sends a token with these claims (over its `sub` and `roles`). */
  authorize(claims: Record<string, unknown>): void {
    if (this.sign === undefined) throw new Error('authorize(): the app under test has no "auth" in its .svcrc, so it takes no token');
    this.token = this.sign(claims);
  }

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
    const headers: Record<string, string> = { accept: 'application/json', ...this.credentials() };
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

  /**
   * Opens `GET <path>/changes` (an entity with `"realtime": true`) with this client's token as it is now, and
   * keeps reading it until `closeFeeds()` (`stopSmokeApp()` calls it).
   */
  async followChanges(path: string): Promise<SmokeChangeFeed> {
    const feed = await SmokeChangeFeed.open(`${this.baseUrl}${path}/changes`, this.credentials());
    this.feeds.add(feed);
    return feed;
  }

  closeFeeds(): void {
    for (const feed of this.feeds) feed.close();
    this.feeds.clear();
  }

  private credentials(): Record<string, string> {
    return this.token === undefined ? { ...this.headers } : { ...this.headers, authorization: `Bearer ${this.token}` };
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
