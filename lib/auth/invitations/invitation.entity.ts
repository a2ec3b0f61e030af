import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An invitation to join an organization (`POST /api/auth/invitations`). Only the SHA-256 of its
 * token is stored; the token itself is returned once to the administrator who invites. Used once:
 * accepting it sets `accepted_at` in the same statement that claims it.
 */
@Entity('svc_invitations')
@Index('svc_invitations_organization', ['organizationId'])
export class SvcInvitation {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** The organization the invitation is to (as the text of its key). */
  @Column({ type: 'text' })
  organizationId!: string;

  /** The invited address, normalized as login e-mails are. */
  @Column({ type: 'text' })
  email!: string;

  /** The membership role the user gets; null for the membership entity's default. */
  @Column({ type: 'text', nullable: true })
  role!: string | null;

  /** Hex SHA-256 of the token. */
  @Index('svc_invitations_hash', { unique: true })
  @Column({ type: 'text' })
  hash!: string;

  /** The user id of the administrator who invited. */
  @Column({ type: 'text', nullable: true })
  invitedBy!: string | null;

  @Column({ type: 'timestamptz' })
  expires_at!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  accepted_at!: Date | null;

  /** The user id that accepted. */
  @Column({ type: 'text', nullable: true })
  acceptedBy!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  revoked_at!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at!: Date;
}
