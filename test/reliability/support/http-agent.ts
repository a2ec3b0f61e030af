import request from 'supertest';

/** A factory of supertest requests, bound to an in-process app (`httpClient`) or to a URL (a child process). */
export type Agent = () => ReturnType<typeof request>;

export function agentFor(target: Parameters<typeof request>[0]): Agent {
  return () => request(target);
}
