import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '../exceptions/error-body';

type Next = (error?: unknown) => void;

/**
 * Whether the application is shutting down. Set by the first shutdown hook Nest calls
 * (`onModuleDestroy`), before the HTTP server stops listening and long before the
 * database closes (`onApplicationShutdown`).
 */
@Injectable()
export class SvcShutdownState implements OnModuleDestroy {
  private draining = false;
  private readonly listeners = new Set<() => void>();

  get isDraining(): boolean {
    return this.draining;
  }

  onDrain(listener: () => void): void {
    this.listeners.add(listener);
  }

  onModuleDestroy(): void {
    if (this.draining) return;
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
