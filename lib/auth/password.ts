import bcrypt from 'bcryptjs';

/** bcrypt cost of every stored password (2^12 rounds, about a quarter of a second). */
export const PASSWORD_HASH_COST = 12;

/** A bcrypt hash of `password` with cost {@link PASSWORD_HASH_COST}. */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, PASSWORD_HASH_COST);
}

/** Whether `password` matches `hash`; false (never an error) for a malformed or missing hash. */
export async function verifyPassword(password: string, hash: unknown): Promise<boolean> {
  if (typeof hash !== 'string' || !hash.startsWith('$2')) {
    await dummyPasswordCheck(password);
    return false;
  }
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}

/**
 * A hash of a random string at the same cost, compared against when the e-mail is unknown so
 * that "no such user" and "wrong password" take the same time. Made on first use.
 */
let dummyHash: Promise<string> | undefined;

/** Spends the time of one password check, for unknown users. */
export async function dummyPasswordCheck(password: string): Promise<void> {
  dummyHash ??= bcrypt.hash(`svc-dummy-${Math.random()}`, PASSWORD_HASH_COST);
  await bcrypt.compare(password, await dummyHash);
}

/** Longest password accepted anywhere (create, update, reset, login): longer ones answer 400, never truncated. */
export const MAX_PASSWORD_LENGTH = 256;
