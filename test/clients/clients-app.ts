/**
 * The `test/apps/clients` app listening on a real port, seeded with known authors, categories and
 * posts, for data providers that speak HTTP themselves (axios, fetch) rather than through supertest.
 */
import type { AddressInfo } from 'node:net';
import { clientsAppModule } from '../apps/clients/src/app.module';
import { type RunningApp, startApp } from '../support/start-app';

export interface SeedAuthor {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly born: string | null;
  readonly rank: number;
}

export interface SeedPost {
  readonly id: number;
  readonly title: string;
  readonly views: number;
  readonly published: boolean;
  readonly status: 'draft' | 'review' | 'live';
  readonly rating: string | null;
  readonly authorId: number | null;
  readonly categoryId: number | null;
}

export interface Seed {
  readonly categories: readonly { readonly id: number; readonly title: string }[];
  readonly authors: readonly SeedAuthor[];
  /** 32 posts: more than the default page of 25. */
  readonly posts: readonly SeedPost[];
}

export interface ClientsApp {
  readonly running: RunningApp;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly seed: Seed;
  close(): Promise<void>;
}

const AUTHORS = [
  { name: 'Ada Lovelace', email: 'ada@example.com', born: '1815-12-10T00:00:00.000Z', rank: 3 },
  { name: 'Alan Turing', email: 'alan@example.com', born: '1912-06-23T00:00:00.000Z', rank: 1 },
  { name: 'Grace Hopper', email: 'grace@example.com', born: null, rank: 2 },
  { name: 'Edsger Dijkstra', email: 'edsger@example.com', born: null, rank: 2 },
];

const STATUSES = ['draft', 'review', 'live'] as const;

async function post<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`seeding ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Seeds through the public API, so ids and defaults are the server's own. */
async function seedData(url: string): Promise<Seed> {
  const categories = await post<{ id: number; title: string }[]>(`${url}/categories/bulk`, {
    bulk: [{ title: 'Science' }, { title: 'History' }, { title: 'Fiction' }],
  });
  const authors = await post<SeedAuthor[]>(`${url}/authors/bulk`, { bulk: AUTHORS });
  const posts = await post<SeedPost[]>(`${url}/posts/bulk`, {
    bulk: Array.from({ length: 32 }, (_, index) => ({
      title: `Post ${String(index + 1).padStart(2, '0')}${index % 5 === 0 ? ' about Engines' : ''}`,
      views: (index * 37) % 100,
      published: index % 2 === 0,
      status: STATUSES[index % 3],
      rating: index % 4 === 0 ? null : `${(index % 9) + 1}.5`,
      authorId: index % 7 === 6 ? null : authors[index % 4].id,
      categoryId: categories[index % 3].id,
    })),
  });
  return { categories, authors, posts };
}

export async function startClientsApp(kind: 'pglite' | 'postgres'): Promise<ClientsApp> {
  const running = await startApp(kind, clientsAppModule);
  await running.app.listen(0, '127.0.0.1');
  const { port } = running.app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const seed = await seedData(url);
  return { running, url, seed, close: () => running.close() };
}

/** Ids of `rows`, in order. */
export const ids = (rows: readonly { readonly id: number }[]): number[] => rows.map((row) => row.id);

/** `rows` sorted by the given keys, as the database would (nulls last on ASC, first on DESC, as PostgreSQL does). */
export function sortedBy<T>(rows: readonly T[], ...keys: [keyof T, 'ASC' | 'DESC'][]): T[] {
  return [...rows].sort((a, b) => {
    for (const [key, order] of keys) {
      const x = a[key] as unknown as string | number | boolean | null;
      const y = b[key] as unknown as string | number | boolean | null;
      if (x === y) continue;
      const sign = order === 'ASC' ? 1 : -1;
      if (x === null) return sign;
      if (y === null) return -sign;
      return (x < y ? -1 : 1) * sign;
    }
    return 0;
  });
}
