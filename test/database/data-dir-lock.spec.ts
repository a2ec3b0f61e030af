import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataDirLockedError, LOCK_FILE_NAME, acquireDataDirLock, openPglite } from '../../lib/database';
import { compileLockModule, deadPid, spawnLockChild, type LockChild } from './child-lock';

describe('PGlite data folder lock', () => {
  let lockModule: string;
  let dir: string;
  const children: LockChild[] = [];

  beforeAll(() => {
    lockModule = compileLockModule();
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-lock-'));
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.process.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => {
    fs.rmSync(path.dirname(lockModule), { recursive: true, force: true });
  });

  const lockFile = () => path.join(dir, LOCK_FILE_NAME);
  const child = (options?: { exitWithoutRelease?: boolean }) => {
    const c = spawnLockChild(lockModule, dir, options);
    children.push(c);
    return c;
  };

  it('refuses a folder another live process holds, with a message a person can act on', async () => {
    const holder = child();
    await expect(holder.outcome).resolves.toBe('locked');
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(`${holder.process.pid}\n${os.hostname()}\n`);

    const error = await acquireDataDirLock(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toBe(
      `PGlite data folder "${dir}" is in use by process ${holder.process.pid}. ` +
        'Stop that process or set PGLITE_DATA_DIR to another folder. ' +
        `If no such process is running, delete "${lockFile()}".`,
    );

    await holder.finish();
    expect(fs.existsSync(lockFile())).toBe(false);
    const lock = await acquireDataDirLock(dir);
    lock.release();
  });

  it('makes a second process opening the same folder fail while PGlite has it open', async () => {
    const db = await openPglite({ dataDir: dir });
    try {
      const second = child();
      await expect(second.outcome).resolves.toBe(
        `error:PGlite data folder "${dir}" is in use by process ${process.pid}. ` +
          `Stop that process or set PGLITE_DATA_DIR to another folder. If no such process is running, delete "${lockFile()}".`,
      );
      await new Promise((resolve) =>
        second.process.exitCode === null ? second.process.once('exit', resolve) : resolve(null),
      );
      expect(second.process.exitCode).toBe(3);
    } finally {
      await db.close();
    }
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('takes over the lock of a killed process', async () => {
    const holder = child();
    await expect(holder.outcome).resolves.toBe('locked');
    holder.process.kill('SIGKILL');
    await new Promise((resolve) => holder.process.once('exit', resolve));
    expect(fs.existsSync(lockFile())).toBe(true);

    const lock = await acquireDataDirLock(dir);
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(`${process.pid}\n${os.hostname()}\n`);
    lock.release();
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('takes over a lock naming a dead pid, an empty lock file, and one naming this process it does not hold', async () => {
    for (const content of [`${await deadPid()}\n${os.hostname()}\n`, '', `${process.pid}\n`]) {
      fs.writeFileSync(lockFile(), content);
      const lock = await acquireDataDirLock(dir);
      expect(fs.readFileSync(lockFile(), 'utf8')).toBe(`${process.pid}\n${os.hostname()}\n`);
      lock.release();
    }
  });

  it('treats a lock from another host as live', async () => {
    fs.writeFileSync(lockFile(), `${await deadPid()}\nother-host\n`);
    await expect(acquireDataDirLock(dir)).rejects.toThrow(/is in use by process \d+ on host "other-host"/);
  });

  it('lets exactly one of several processes take over the same stale lock', async () => {
    fs.writeFileSync(lockFile(), `${await deadPid()}\n${os.hostname()}\n`);
    const racers = [child(), child(), child(), child()];
    const outcomes = await Promise.all(racers.map((r) => r.outcome));
    expect(outcomes.filter((o) => o === 'locked')).toHaveLength(1);
    expect(outcomes.filter((o) => o.startsWith('error:PGlite data folder'))).toHaveLength(3);
  });

  it('refuses a second open in the same process until the first is released', async () => {
    const first = await acquireDataDirLock(dir);
    await expect(acquireDataDirLock(dir)).rejects.toThrow(`is in use by process ${process.pid}`);
    first.release();
    first.release();
    const second = await acquireDataDirLock(dir);
    second.release();
  });

  it('says so when the data folder cannot be a folder', async () => {
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    await expect(acquireDataDirLock(path.join(file, 'data'))).rejects.toThrow(
      `PGLITE_DATA_DIR "${file}/data" cannot be used as a data folder (ENOTDIR). Set it to a writable folder or to "memory".`,
    );
  });

  it('removes its lock when the process exits without releasing it', async () => {
    const holder = child({ exitWithoutRelease: true });
    await expect(holder.outcome).resolves.toBe('locked');
    await holder.finish();
    expect(fs.existsSync(lockFile())).toBe(false);
  });
});
