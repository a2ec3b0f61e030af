import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openPglite } from '../../lib/database';

/**
 * In-memory PGlite starts from a saved fresh cluster in the project's node_modules/.cache (no initdb after the
 * first start), and a tarball it cannot start from is replaced, never a failed start.
 */
describe('in-memory PGlite and the saved fresh cluster', () => {
  const originalCwd = process.cwd();
  let project: string;
  let tarball: string;

  beforeAll(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pglite-template-'));
    fs.mkdirSync(path.join(project, 'node_modules'));
    process.chdir(project);
  });
  afterAll(() => {
    process.chdir(originalCwd);
    fs.rmSync(project, { recursive: true, force: true });
  });

  const cacheFiles = () => {
    const dir = path.join(project, 'node_modules', '.cache', '@svc', 'nest');
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
  };

  async function roundTrip(): Promise<string[]> {
    const connection = await openPglite({ dataDir: null });
    try {
      await connection.pglite.exec('CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1)');
      const databases = await connection.pglite.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY 1');
      return databases.rows.map((row) => row.datname);
    } finally {
      await connection.close();
    }
  }

  it('saves the cluster at the first start, as initdb left it, and later starts are equally empty', async () => {
    expect(cacheFiles()).toEqual([]);
    const first = await roundTrip();
    const files = cacheFiles();
    expect(files).toHaveLength(1);
    tarball = files[0];
    expect(path.basename(tarball)).toMatch(/^pglite-[\w.+-]+-cluster\.tar$/);
    const saved = fs.readFileSync(tarball);
    // The second start loads the tarball: a table the first database made is not in it.
    expect(await roundTrip()).toEqual(first);
    expect(fs.readFileSync(tarball).equals(saved)).toBe(true);
  });

  it('replaces a tarball it cannot start from and still opens the database', async () => {
    fs.writeFileSync(tarball, 'not a tarball');
    expect(await roundTrip()).toEqual(['postgres', 'template0', 'template1']);
    expect(fs.statSync(tarball).size).toBeGreaterThan(1_000_000);
    expect(cacheFiles()).toEqual([tarball]);
  });

  it('keeps nothing outside a project with node_modules', async () => {
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pglite-bare-'));
    process.chdir(bare);
    try {
      expect(await roundTrip()).toEqual(['postgres', 'template0', 'template1']);
      expect(fs.readdirSync(bare)).toEqual([]);
    } finally {
      process.chdir(project);
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });
});
