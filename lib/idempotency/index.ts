export { SvcIdempotencyKey } from './idempotency-key.entity';
export { SvcIdempotencyInterceptor, IDEMPOTENT_REPLAYED_HEADER } from './idempotency.interceptor';
export { SvcIdempotencyStore } from './idempotency.store';
export { SvcIdempotencyCleanup } from './idempotency-cleanup';
