export { RATE_LIMIT_NAME, SVC_RATE_LIMIT_STORAGE, SvcRateLimitInterceptor } from './rate-limit.interceptor';
export { SvcCredentialConcurrencyInterceptor } from './credential-concurrency.interceptor';
