type Env = Record<string, string | undefined>;

/** The settings that make instances share state: all optional, each turning on one piece. */
export interface ScaleConfig {
  /** `REDIS_URL`: rate limits and login throttling counted in Redis. */
  readonly redisUrl: string | null;
  /** `REDIS_KEY_PREFIX`, default `svc:`: put before every key, so services can share one Redis. */
  readonly redisKeyPrefix: string;
  /** `EVENTS_URL` (`nats://…`): domain events written to the outbox and relayed to NATS JetStream. */
  readonly eventsUrl: string | null;
}

/** A URL as it may be logged: without its password. */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

function setting(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

/** Reads and checks `REDIS_URL` and `EVENTS_URL`; a malformed value fails startup with the variable named. */
export function readScaleConfig(env: Env): ScaleConfig {
  const redisUrl = setting(env, 'REDIS_URL');
  if (redisUrl !== null && !/^rediss?:\/\//i.test(redisUrl)) {
    throw new Error(
      `REDIS_URL="${withoutPassword(redisUrl)}" is not a Redis URL: use redis://[:password@]host:port[/db] (or rediss:// for TLS).`,
    );
  }
  const eventsUrl = setting(env, 'EVENTS_URL');
  if (eventsUrl !== null && !/^nats:\/\//i.test(eventsUrl)) {
    throw new Error(`EVENTS_URL="${withoutPassword(eventsUrl)}" is not supported: use nats://host:port (NATS with JetStream).`);
  }
  return { redisUrl, redisKeyPrefix: setting(env, 'REDIS_KEY_PREFIX') ?? 'svc:', eventsUrl };
}
