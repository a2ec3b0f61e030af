import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The organization whose administrator created an account (`POST /users` in that organization), which may
 * then add it to that organization once, without an invitation. Any other organization, and this one after
 * the account has joined, needs the user's consent: an invitation the user accepts.
 */
@Entity('svc_account_claims')
export class SvcAccountClaim {
  /** The user id (as the text of its key). */
  @PrimaryColumn({ type: 'text' })
  userId!: string;

  @Index('svc_account_claims_organization')
  @Column({ type: 'text' })
  organizationId!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at!: Date;
}
