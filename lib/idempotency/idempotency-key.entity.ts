import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One `Idempotency-Key` of one credential (`svc_idempotency_keys`): the request it was first
 * used with, and once that request has succeeded, its answer, replayed to retries until `expires_at`.
 */
@Entity('svc_idempotency_keys')
export class SvcIdempotencyKey {
  /** SHA-256 of the credential that sent the key, so that one caller can never replay another's. */
  @PrimaryColumn({ type: 'text' })
  owner!: string;

  @PrimaryColumn({ type: 'text' })
  key!: string;

  /** SHA-256 of the method, path and body of the first request. */
  @Column({ type: 'text' })
  fingerprint!: string;

  /** Null while the first request runs. */
  @Column({ type: 'integer', nullable: true })
  status!: number | null;

  @Column({ type: 'jsonb', nullable: true })
  body!: unknown;

  /** Until then, a running first request holds the key; past it, a retry may take it over. */
  @Column({ type: 'timestamptz' })
  locked_until!: Date;

  @Index('svc_idempotency_keys_expires_at')
  @Column({ type: 'timestamptz' })
  expires_at!: Date;
}
