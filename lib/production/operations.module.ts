import { type DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { SvcRedis } from '../scale/redis-connection';
import { SvcCredentialConcurrencyInterceptor } from '../throttling/credential-concurrency.interceptor';
import { InMemoryThrottlerStorage } from '../throttling/in-memory-throttler.storage';
import { SvcRateLimitInterceptor } from '../throttling/rate-limit.interceptor';
import { RedisThrottlerStorage } from '../throttling/redis-throttler.storage';
import { SVC_THROTTLER_STORAGE } from '../throttling/svc-throttler-storage';
import { SvcShutdownState } from './shutdown-drain';

/**
 * What `SvcModule` adds for running in production: the event emitter of domain events
 * (`EventEmitterModule.forRoot({ wildcard: true })`, so `@OnEvent('loan.*')` works), the
 * throttler storage that the `api.rateLimit` interceptor and the login throttle count in (in Redis
 * when `REDIS_URL` is set, else in this process), the `api.rateLimit` interceptor, the
 * `api.concurrency` interceptor (always on, counting in this process) and the shutdown state used to drain requests.
 */
@Module({})
export class SvcOperationsModule {
  /**
   * `optionsModule` exports `SVC_MODEL`. Without `rateLimit` its interceptor is not registered at all.
   */
  static forRoot(optionsModule: DynamicModule, { rateLimit = true }: { rateLimit?: boolean } = {}): DynamicModule {
    return {
      module: SvcOperationsModule,
      imports: [optionsModule, EventEmitterModule.forRoot({ wildcard: true })],
      providers: [
        SvcShutdownState,
        SvcRedis,
        {
          provide: SVC_THROTTLER_STORAGE,
          inject: [SvcRedis],
          useFactory: ({ client }: SvcRedis) =>
            client === null ? new InMemoryThrottlerStorage() : new RedisThrottlerStorage(client, new InMemoryThrottlerStorage()),
        },
        ...(rateLimit ? [{ provide: APP_INTERCEPTOR, useClass: SvcRateLimitInterceptor }] : []),
        // After the rate limit: a request it refuses never takes a turn.
        { provide: APP_INTERCEPTOR, useClass: SvcCredentialConcurrencyInterceptor },
      ],
      exports: [SvcShutdownState, SvcRedis, SVC_THROTTLER_STORAGE],
    };
  }
}
