import { authEntities } from './auth/auth.entities';
import { SvcIdempotencyKey } from './idempotency/idempotency-key.entity';

/**
 * The runtime's own tables, part of every application's schema (synchronized, and in the migrations
 * `svc migrate generate` writes): `svc_idempotency_keys`; with `auth`, `svc_api_keys`; with
 * `auth.userEntity`, `svc_refresh_tokens`; with `auth.accountUserEntity` too, `svc_invitations` and `svc_account_claims`.
 */
export function runtimeEntities(auth: { readonly userEntity: string | null; readonly accountUserEntity?: string | null } | null): Function[] {
  return [...authEntities(auth), SvcIdempotencyKey];
}
