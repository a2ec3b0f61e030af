import { createHash } from 'node:crypto';
import { withClient } from './app-under-test';
import { canonicalJson } from './compare';
import type { Agent } from './http-agent';
import { ENTITIES } from './model';

/** Row count and content hash of every table, plus what an injection could create besides rows. */
export interface Snapshot {
  readonly tables: Record<string, { rows: number; hash: string }>;
  readonly extra: Record<string, number | string>;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** Straight from PostgreSQL: every table of the schema, roles, functions. */
export async function sqlSnapshot(url: string): Promise<Snapshot> {
  return withClient(url, async (client) => {
    const tables: Snapshot['tables'] = {};
    const names = await client.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    for (const { tablename } of names.rows) {
      const quoted = `"${tablename.replace(/"/g, '""')}"`;
      const r = await client.query<{ n: number; h: string }>(
        `SELECT count(*)::int AS n, coalesce(md5(string_agg(t::text, E'\\n' ORDER BY t::text)), '') AS h FROM ${quoted} t`,
      );
      tables[tablename] = { rows: r.rows[0]!.n, hash: r.rows[0]!.h };
    }
    const roles = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_roles');
    const functions = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_proc p JOIN pg_namespace s ON s.oid = p.pronamespace WHERE s.nspname = 'public'",
    );
    return {
      tables,
      extra: { roles: roles.rows[0]!.n, publicFunctions: functions.rows[0]!.n, tableList: names.rows.map((r) => r.tablename).join(',') },
    };
  });
}

/** Through the API (PGlite has no second connection): every row of every entity, soft-deleted ones included. */
export async function httpSnapshot(http: Agent): Promise<Snapshot> {
  const tables: Snapshot['tables'] = {};
  for (const entity of Object.values(ENTITIES)) {
    const rows: unknown[] = [];
    for (let page = 1; ; page++) {
      const res = await http().get(`/${entity.route}?limit=50&page=${page}&sort=id,ASC${entity.softDelete ? '&include_deleted=1' : ''}`);
      if (res.status !== 200) throw new Error(`snapshot of ${entity.route}: ${res.status} ${JSON.stringify(res.body)}`);
      rows.push(...res.body.data);
      if (page >= res.body.pageCount) break;
    }
    tables[entity.table] = { rows: rows.length, hash: sha(rows.map((row) => canonicalJson(row)).join('\n')) };
  }
  return { tables, extra: {} };
}
