import { Inject, Injectable, type OnModuleDestroy, Optional } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorBody } from '../filters/error-body';
import type { SvcModuleOptions } from '../interfaces/svc-module-options.interface';
import { MODULE_OPTIONS_TOKEN } from '../svc.module-definition';

/**
 * `SHUTDOWN_GRACE_MS`: how long the process keeps serving after SIGTERM while `GET /health/ready`
 * answers 503, so a load balancer stops sending it traffic before it drains. Default 0.
 */
export function readShutdownGraceMs(env: Record<string, string | undefined>): number {
  const raw = env.SHUTDOWN_GRACE_MS?.trim();
  if (!raw) return 0;
  if (!/^\d+$/.test(raw) || Number(raw) > 600_000) {
    throw new Error(`SHUTDOWN_GRACE_MS="${raw}" is not valid: use a whole number of milliseconds from 0 to 600000.`);
  }
  return Number(raw);
}

type Next = (error?: unknown) => void;

/**
 * Whether the application is shutting down. Set by the first shutdown hook Nest calls
 * (`onModuleDestroy`), before the HTTP server stops listening and long before the
 * database closes (`onApplicationShutdown`). With `SHUTDOWN_GRACE_MS`, the instance is first
 * only *stopping* (not ready, still serving) for that long, then draining.
 */
@Injectable()
export class SvcShutdownState implements OnModuleDestroy {
  private stopping = false;
  private draining = false;
  private readonly listeners = new Set<() => void>();
  private readonly graceMs: number;

  constructor(@Optional() @Inject(MODULE_OPTIONS_TOKEN) options?: SvcModuleOptions) {
    this.graceMs = readShutdownGraceMs(options?.env ?? process.env);
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** True from the shutdown signal on: `GET /health/ready` answers 503. */
  get isStopping(): boolean {
    return this.stopping;
  }

  onDrain(listener: () => void): void {
    this.listeners.add(listener);
  }

  onModuleDestroy(): void | Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.graceMs === 0) return this.drain();
    return sleep(this.graceMs).then(() => this.drain());
  }

  private drain(): void {
    this.draining = true;
    for (const listener of this.listeners) listener();
  }
}

/**
 * Middleware for a clean drain on SIGTERM. Requests already running finish normally, and
 * their responses carry `Connection: close` so keep-alive clients do not hold the server
 * open; a request arriving on a kept-alive connection during shutdown gets 503 (error
 * envelope, `Connection: close`). New connections are refused once the server has closed.
 */
export function createDrainMiddleware(state: SvcShutdownState) {
  const inFlight = new Set<ServerResponse>();
  state.onDrain(() => {
    for (const response of inFlight) {
      if (!response.headersSent) response.setHeader('Connection', 'close');
    }
  });
  return (_request: IncomingMessage, response: ServerResponse, next: Next): void => {
    if (state.isDraining) {
      const body = JSON.stringify(errorBody(503, 'The service is shutting down; retry on another instance'));
      response.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close', 'Retry-After': '1' });
      response.end(body);
      return;
    }
    inFlight.add(response);
    const forget = () => inFlight.delete(response);
    response.once('finish', forget);
    response.once('close', forget);
    next();
  };
}
