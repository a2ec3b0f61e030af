/**
 * The PGlite that `svc dev` serves to each application instance (`PGLITE_SERVER`), driven with the
 * ordinary `pg` client and with TypeORM as the application uses it: results as from PostgreSQL,
 * connections served in turn, and nothing of a dropped client's session left for the next one.
 */
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { readDatabaseConfig } from '../../lib/database/database-config';
import { servePglite, type PgliteServer } from '../../lib/database/pglite-server';
import { createDataSource } from '../../lib/database/typeorm-options';
import { Project } from './entities';

let pglite: PGlite;
let server: PgliteServer;

beforeAll(async () => {
  pglite = await PGlite.create();
  server = await servePglite(pglite);
}, 180_000);
afterAll(async () => {
  await server.close();
  await pglite.close();
});

async function connect(): Promise<Client> {
  const client = new Client({ host: server.address.host, port: server.address.port, user: 'postgres', database: 'postgres' });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

describe('servePglite', () => {
  it('answers as PostgreSQL does: parameters, bigint as text, unique violations as 23505, large values', async () => {
    const client = await connect();
    try {
      const { rows } = await client.query('SELECT $1::int + 1 AS n, 9007199254740993::bigint AS big', [41]);
      expect(rows).toEqual([{ n: 42, big: '9007199254740993' }]);
      await client.query('CREATE TABLE tags (id serial PRIMARY KEY, label text UNIQUE)');
      await client.query('INSERT INTO tags (label) VALUES ($1)', ['a']);
      await expect(client.query('INSERT INTO tags (label) VALUES ($1)', ['a'])).rejects.toMatchObject({ code: '23505' });
      const large = 'x'.repeat(300_000); // many TCP chunks: messages are reassembled before PGlite sees them
      expect(
        (await client.query('SELECT length($1::text) AS n, md5($1::text) = md5(repeat($2, 300000)) AS same', [large, 'x'])).rows,
      ).toEqual([{ n: 300_000, same: true }]);
    } finally {
      await client.end();
    }
  });

  it('serves a second client once the first is gone, without its open transaction or prepared statements', async () => {
    const first = await connect();
    await first.query('CREATE TABLE notes (id serial PRIMARY KEY, body text)');
    await first.query({ name: 'add_note', text: 'INSERT INTO notes (body) VALUES ($1)', values: ['kept'] });
    await first.query('BEGIN');
    await first.query("INSERT INTO notes (body) VALUES ('never committed')");

    let secondConnected = false;
    const second = connect().then((client) => {
      secondConnected = true;
      return client;
    });
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 300));
    expect(secondConnected).toBe(false); // one session: the second waits its turn

    (first as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy(); // a killed application
    const client = await second;
    try {
      expect((await client.query('SELECT body FROM notes ORDER BY id')).rows).toEqual([{ body: 'kept' }]);
      // The same statement name as the first client: it was discarded with its session.
      await client.query({ name: 'add_note', text: 'INSERT INTO notes (body) VALUES ($1)', values: ['again'] });
      expect((await client.query('SELECT count(*)::int AS n FROM notes')).rows).toEqual([{ n: 2 }]);
    } finally {
      await client.end();
    }
  });

  it('is what the application reaches with PGLITE_SERVER: TypeORM synchronizes and writes through it', async () => {
    const { host, port } = server.address;
    const config = readDatabaseConfig(
      { PGLITE_SERVER: host.startsWith('/') ? host : `${host}:${port}` },
      { database: { pool: { max: 1 } } },
    );
    expect(config).toMatchObject({ type: 'pglite', server: { host, port } });
    const dataSource = await createDataSource(config, [Project]);
    try {
      await dataSource.getRepository(Project).save({ name: 'Dune', big: '9007199254740993' });
      expect(await dataSource.getRepository(Project).findOneByOrFail({ name: 'Dune' })).toMatchObject({ big: '9007199254740993' });
    } finally {
      await dataSource.destroy();
    }
    const client = await connect();
    try {
      expect((await client.query('SELECT name FROM projects')).rows).toEqual([{ name: 'Dune' }]);
    } finally {
      await client.end();
    }
  });

  it('refuses a PGLITE_SERVER it cannot use, saying what it is for', () => {
    expect(() => readDatabaseConfig({ PGLITE_SERVER: 'localhost' }, { database: { pool: { max: 1 } } })).toThrow(
      /PGLITE_SERVER="localhost" is not valid: svc dev sets it/,
    );
  });
});
