/**
 * Where `svc login` keeps the platform credential: `$XDG_CONFIG_HOME/svc/credentials.json`
 * (or `~/.config/svc/credentials.json`), readable by its owner only.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface StoredCredential {
  readonly token: string;
  /** ISO time of `svc login`. */
  readonly savedAt: string;
}

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.length > 0 ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'svc', 'credentials.json');
}

export function saveCredential(token: string, env: NodeJS.ProcessEnv = process.env): string {
  const file = credentialsPath(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  chmodSync(dirname(file), 0o700);
  const credential: StoredCredential = { token, savedAt: new Date().toISOString() };
  writeFileSync(file, `${JSON.stringify(credential, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export function readCredential(env: NodeJS.ProcessEnv = process.env): StoredCredential | null {
  const file = credentialsPath(env);
  if (!existsSync(file)) return null;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<StoredCredential>;
    return typeof parsed.token === 'string' ? { token: parsed.token, savedAt: String(parsed.savedAt ?? '') } : null;
  } catch {
    return null;
  }
}

/** Removes the stored credential; false when there was none. */
export function deleteCredential(env: NodeJS.ProcessEnv = process.env): boolean {
  const file = credentialsPath(env);
  if (!existsSync(file)) return false;
  rmSync(file);
  return true;
}
