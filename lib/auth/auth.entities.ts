import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { SvcAccountClaim } from '../scope/account-claim.entity';
import { SvcInvitation } from './invitations/invitation.entity';

/**
 * A service API key. Only the SHA-256 of the whole key is stored; `prefix` keeps the first
 * characters (`svc_AbC123`) so a person can tell keys apart in `svc keys list`.
 */
@Entity('svc_api_keys')
export class SvcApiKey {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  prefix!: string;

  /** Hex SHA-256 of the whole key. */
  @Index('svc_api_keys_hash', { unique: true })
  @Column({ type: 'text' })
  hash!: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  roles!: string[];

  /** Organization the key acts in; null lets it act in any organization named by `X-Organization-Id`. */
  @Column({ type: 'text', nullable: true })
  organizationId!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at!: Date | null;
}

/**
 * The state of one refresh token (by its `jti`), shared by every instance of the service:
 * each token can be used once; a second use revokes its whole family (and its session).
 */
@Entity('svc_refresh_tokens')
export class SvcRefreshToken {
  @PrimaryGeneratedColumn('uuid')
  jti!: string;

  /** Every token descending from one login. */
  @Index('svc_refresh_tokens_family')
  @Column({ type: 'uuid' })
  family!: string;

  @Column({ type: 'text' })
  userId!: string;

  @Column({ type: 'text', nullable: true })
  organizationId!: string | null;

  /** Id of the row of `auth.sessionEntity`, when there is one. */
  @Column({ type: 'text', nullable: true })
  sessionId!: string | null;

  @Column({ type: 'timestamptz' })
  expires_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  used_at!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at!: Date;
}

/**
 * The internal tables a service with `auth` needs: API keys always, refresh state when users log in,
 * invitations and account claims when users join organizations through memberships (`accountUserEntity`).
 */
export function authEntities(auth: { readonly userEntity: string | null; readonly accountUserEntity?: string | null } | null): Function[] {
  if (!auth) return [];
  if (!auth.userEntity) return [SvcApiKey];
  return auth.accountUserEntity ? [SvcApiKey, SvcRefreshToken, SvcInvitation, SvcAccountClaim] : [SvcApiKey, SvcRefreshToken];
}
