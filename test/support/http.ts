import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

/** A supertest agent factory bound to a running app. */
export function httpClient(app: INestApplication) {
  return () => request(app.getHttpServer());
}

/** `path?` followed by raw query parts, each percent-encoded as a browser would. */
export function withQuery(path: string, ...parts: [string, string][]): string {
  if (parts.length === 0) return path;
  return `${path}?${parts.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
}
