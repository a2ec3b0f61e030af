import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EntityTable } from '../sql/entity-table';
import { SqlExecutor } from '../sql/sql-executor';
import { SvcInvitation } from './invitation.entity';

/** An invitation as the API shows it: never its token or hash. */
export interface InvitationInfo {
  id: string;
  organizationId: string;
  email: string;
  role: string | null;
  invitedBy: string | null;
  expiresAt: Date;
  createdAt: Date;
}

export interface NewInvitation {
  readonly organizationId: string;
  readonly email: string;
  readonly role: string | null;
  readonly hash: string;
  readonly invitedBy: string | null;
  readonly expiresAt: Date;
}

const INFO = ['id', 'organizationId', 'email', 'role', 'invitedBy', 'expires_at', 'created_at'] as const;
type InfoRow = Pick<SvcInvitation, (typeof INFO)[number]>;

/** The statements on `svc_invitations`, run through `SqlExecutor`; identifiers from the entity's metadata. */
@Injectable()
export class SvcInvitationStore {
  constructor(private readonly executor: SqlExecutor) {}

  async insert(invitation: NewInvitation, connection?: EntityManager): Promise<InvitationInfo> {
    const t = this.table();
    const columns = ['organizationId', 'email', 'role', 'hash', 'invitedBy', 'expires_at'].map((property) => t.column(property));
    const [row] = await this.executor.records<InfoRow>(
      {
        text: `INSERT INTO ${t.name} (${columns.join(', ')}) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${t.select(INFO)}`,
        values: [invitation.organizationId, invitation.email, invitation.role, invitation.hash, invitation.invitedBy, invitation.expiresAt],
      },
      connection,
    );
    return info(row);
  }

  /** Pending invitations of an organization: not accepted, not revoked, not expired; oldest first. */
  async pending(organizationId: string): Promise<InvitationInfo[]> {
    const t = this.table();
    const rows = await this.executor.records<InfoRow>({
      text: `SELECT ${t.select(INFO)} FROM ${t.name} WHERE ${t.column('organizationId')} = $1 AND ${pendingSql(t)} ORDER BY ${t.column('created_at')}, ${t.column('id')}`,
      values: [organizationId],
    });
    return rows.map(info);
  }

  /** Revokes a pending invitation of the organization; false when there is none with this id. */
  async revoke(id: string, organizationId: string): Promise<boolean> {
    const t = this.table();
    const rows = await this.executor.records({
      text:
        `UPDATE ${t.name} SET ${t.column('revoked_at')} = CURRENT_TIMESTAMP WHERE ${t.column('id')} = $1 ` +
        `AND ${t.column('organizationId')} = $2 AND ${pendingSql(t)} RETURNING ${t.select(['id'])}`,
      values: [id, organizationId],
    });
    return rows.length > 0;
  }

  /** The pending invitation with this token hash, read without claiming it; null when none is pending. */
  async findPending(hash: string): Promise<InvitationInfo | null> {
    const t = this.table();
    const [row] = await this.executor.records<InfoRow>({
      text: `SELECT ${t.select(INFO)} FROM ${t.name} WHERE ${t.column('hash')} = $1 AND ${pendingSql(t)}`,
      values: [hash],
    });
    return row ? info(row) : null;
  }

  /**
   * Claims the pending invitation with this token hash: marks it accepted, in one conditional
   * UPDATE, so a token is used once even by concurrent requests. Null when none was pending.
   */
  async claim(hash: string, connection: EntityManager): Promise<InvitationInfo | null> {
    const t = this.table();
    const [row] = await this.executor.records<InfoRow>(
      {
        text:
          `UPDATE ${t.name} SET ${t.column('accepted_at')} = CURRENT_TIMESTAMP WHERE ${t.column('hash')} = $1 AND ${pendingSql(t)} ` +
          `RETURNING ${t.select(INFO)}`,
        values: [hash],
      },
      connection,
    );
    return row ? info(row) : null;
  }

  async acceptedBy(id: string, userId: string, connection: EntityManager): Promise<void> {
    const t = this.table();
    await this.executor.records({ text: `UPDATE ${t.name} SET ${t.column('acceptedBy')} = $2 WHERE ${t.column('id')} = $1`, values: [id, userId] }, connection);
  }

  /** Resolved on use: the entity is registered only with `auth.accountUserEntity`. */
  private table(): EntityTable {
    return this.executor.table(SvcInvitation);
  }
}

function pendingSql(t: EntityTable): string {
  return `${t.column('accepted_at')} IS NULL AND ${t.column('revoked_at')} IS NULL AND ${t.column('expires_at')} > CURRENT_TIMESTAMP`;
}

function info(row: InfoRow): InvitationInfo {
  return {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    role: row.role,
    invitedBy: row.invitedBy,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
  };
}
