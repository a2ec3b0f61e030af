/**
 * What `svc login` keeps: who you are on the platform (subject, organization, expiry), read from the
 * token you give it, in `$XDG_CONFIG_HOME/svc/credentials.json` (or `~/.config/svc/credentials.json`),
 * readable by its owner only. Never the token itself: no svc command calls the platform with it, so
 * a stored token would be a secret that serves no purpose. `svc init` (without `--skip-platform`)
 * requires a login that has not expired; `svc whoami` shows it; `svc logout` removes it.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { type PlatformClaims, readPlatformClaims } from './platform-token';

export interface StoredLogin {
  /** The token's `sub`. */
  readonly subject: string | null;
  /** The token's `organizationId`. */
  readonly organizationId: string | null;
  /** ISO time the token expires (its `exp`); null when it has none. */
  readonly expiresAt: string | null;
  /** ISO time of `svc login`. */
  readonly savedAt: string;
}

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.trim().length > 0 ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'svc', 'credentials.json');
}

function text(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

/** The login a token's claims describe. */
export function loginFromClaims(claims: PlatformClaims, savedAt = new Date().toISOString()): StoredLogin {
  return {
    subject: text(claims.sub),
    organizationId: text(claims.organizationId),
    expiresAt: typeof claims.exp === 'number' ? new Date(claims.exp * 1000).toISOString() : null,
    savedAt,
  };
}

function write(file: string, login: StoredLogin): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  chmodSync(dirname(file), 0o700);
  writeFileSync(file, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function saveLogin(login: StoredLogin, env: NodeJS.ProcessEnv = process.env): string {
  const file = credentialsPath(env);
  write(file, login);
  return file;
}

/**
 * The stored login, or null when there is none. A file written by an earlier version holds the
 * token itself: its claims are kept and the token is removed from the disk.
 */
export function readLogin(env: NodeJS.ProcessEnv = process.env): StoredLogin | null {
  const file = credentialsPath(env);
  if (!existsSync(file)) return null;
  let parsed: Record<string, unknown>;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    parsed = value as Record<string, unknown>;
  } catch {
    return null;
  }
  const savedAt = text(parsed.savedAt) ?? new Date(0).toISOString();
  if (typeof parsed.token === 'string') {
    const claims = readPlatformClaims(parsed.token);
    const login = loginFromClaims(claims ?? {}, savedAt);
    write(file, login);
    return login;
  }
  return { subject: text(parsed.subject), organizationId: text(parsed.organizationId), expiresAt: text(parsed.expiresAt), savedAt };
}

/** Whether the login's token has expired (a login without expiry never does). */
export function loginExpired(login: StoredLogin, now = Date.now()): boolean {
  return login.expiresAt !== null && Date.parse(login.expiresAt) <= now;
}

/** Removes the stored login; false when there was none. */
export function deleteLogin(env: NodeJS.ProcessEnv = process.env): boolean {
  const file = credentialsPath(env);
  if (!existsSync(file)) return false;
  rmSync(file);
  return true;
}
