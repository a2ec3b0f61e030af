import bcrypt from 'bcryptjs';
import { randomBytes, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { ConcurrencyLimit } from '../../throttling/concurrency-limit';
import { ScryptWorkerPool } from './scrypt-worker';

/**
 * scrypt cost of every new hash: N = 2^14 (`ln`), r = 8, p = 1, so 16 MiB and about 50 ms per hash
 * on a 2-core machine (N = 2^15 took 150 ms). Computed by Node's scrypt on worker threads of lower
 * priority, never on the event loop.
 */
export const PASSWORD_HASH_PARAMS = { ln: 14, r: 8, p: 1 } as const;

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Bounds on parameters read back from a stored hash, so a tampered row cannot ask for gigabytes. */
const MAX_LN = 20;
const MAX_R = 32;
const MAX_P = 16;
const SCRYPT_HASH = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$/;

/**
 * Hashes computed at once (hashing threads): one core fewer than the machine has, at least one,
 * so a login storm cannot take every core from the event loop.
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(1, availableParallelism() - 1);
const scryptThreads = new ScryptWorkerPool(PASSWORD_HASH_CONCURRENCY);
/** Legacy bcrypt checks run on the event loop: one at a time. */
const bcryptChecks = new ConcurrencyLimit(1);

interface ScryptParams {
  ln: number;
  r: number;
  p: number;
}

/** Node's scrypt on a hashing thread; `maxmem` set to what the parameters need (128 · N · r) plus slack. */
function derive(password: string, salt: Buffer, keyLength: number, { ln, r, p }: ScryptParams): Promise<Buffer> {
  const N = 2 ** ln;
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return scryptThreads.derive(password.normalize('NFC'), salt, keyLength, options);
}

/**
 * A self-describing scrypt hash of `password`: `$scrypt$ln=14,r=8,p=1$<salt>$<hash>` (base64,
 * no padding, as in the PHC string format). No truncation: every character counts.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, PASSWORD_HASH_PARAMS);
  const { ln, r, p } = PASSWORD_HASH_PARAMS;
  return `$scrypt$ln=${ln},r=${r},p=${p}$${b64(salt)}$${b64(key)}`;
}

/** Whether `password` matches `hash` (scrypt, or a legacy bcrypt hash); false, never an error, for a malformed one. */
export async function verifyPassword(password: string, hash: unknown): Promise<boolean> {
  if (typeof hash === 'string') {
    const scryptHash = parseScrypt(hash);
    if (scryptHash) {
      const key = await derive(password, scryptHash.salt, scryptHash.key.length, scryptHash.params);
      return timingSafeEqual(key, scryptHash.key);
    }
    if (BCRYPT_HASH.test(hash)) {
      try {
        // bcryptjs computes in JavaScript; its async form at least yields between rounds.
        return await bcryptChecks.run(() => bcrypt.compare(password, hash));
      } catch {
        return false;
      }
    }
  }
  await dummyPasswordCheck(password);
  return false;
}

/** Whether a stored hash should be replaced on the next successful login: bcrypt, or scrypt with other parameters. */
export function needsRehash(hash: unknown): boolean {
  if (typeof hash !== 'string') return false;
  const parsed = parseScrypt(hash);
  if (!parsed) return BCRYPT_HASH.test(hash);
  const { ln, r, p } = PASSWORD_HASH_PARAMS;
  return parsed.params.ln !== ln || parsed.params.r !== r || parsed.params.p !== p || parsed.key.length !== KEY_BYTES;
}

const DUMMY_SALT = randomBytes(SALT_BYTES);

/** Spends the time of one password check (same parameters, result ignored), for unknown users. */
export async function dummyPasswordCheck(password: string): Promise<void> {
  await derive(password, DUMMY_SALT, KEY_BYTES, PASSWORD_HASH_PARAMS);
}

function parseScrypt(hash: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const match = SCRYPT_HASH.exec(hash);
  if (!match) return null;
  const [ln, r, p] = [match[1], match[2], match[3]].map(Number);
  if (ln < 1 || ln > MAX_LN || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return null;
  const salt = Buffer.from(match[4], 'base64');
  const key = Buffer.from(match[5], 'base64');
  if (salt.length < 8 || key.length < 16 || key.length > 64) return null;
  return { params: { ln, r, p }, salt, key };
}

function b64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}
