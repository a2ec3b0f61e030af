import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where `svc login` stores the platform credential: `$XDG_CONFIG_HOME/svc/credentials.json`, else `~/.config/svc/credentials.json`. */
export function platformCredentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'svc', 'credentials.json');
}
