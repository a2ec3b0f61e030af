export { RATE_LIMIT_NAME, SvcRateLimitInterceptor } from './rate-limit.interceptor';
export { SvcCredentialConcurrencyInterceptor } from './credential-concurrency.interceptor';
export { SVC_THROTTLER_STORAGE, type SvcThrottlerStorage } from './svc-throttler-storage';
export { InMemoryThrottlerStorage } from './in-memory-throttler.storage';
