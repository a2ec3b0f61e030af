import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EntityTable } from '../../sql/entity-table';
import { SqlExecutor } from '../../sql/sql-executor';
import {
  claimInvitation,
  findPendingInvitation,
  INVITATION_INFO_FIELDS,
  insertInvitation,
  type NewInvitationRow,
  pendingInvitations,
  revokeInvitation,
  setInvitationAcceptedBy,
} from '../../sql/statements/invitations';
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

/** What an administrator's invitation stores (the token only as its hash). */
export type NewInvitation = NewInvitationRow;

type InfoRow = Pick<SvcInvitation, (typeof INVITATION_INFO_FIELDS)[number]>;

/** The statements on `svc_invitations`, run through `SqlExecutor`; identifiers from the entity's metadata. */
@Injectable()
export class SvcInvitationStore {
  constructor(private readonly executor: SqlExecutor) {}

  async insert(invitation: NewInvitation, connection?: EntityManager): Promise<InvitationInfo> {
    const [row] = await this.executor.records<InfoRow>(insertInvitation(this.table(), invitation), connection);
    return info(row);
  }

  /** Pending invitations of an organization: not accepted, not revoked, not expired; oldest first. */
  async pending(organizationId: string): Promise<InvitationInfo[]> {
    const rows = await this.executor.records<InfoRow>(pendingInvitations(this.table(), organizationId));
    return rows.map(info);
  }

  /** Revokes a pending invitation of the organization; false when there is none with this id. */
  async revoke(id: string, organizationId: string): Promise<boolean> {
    const rows = await this.executor.records(revokeInvitation(this.table(), id, organizationId));
    return rows.length > 0;
  }

  /** The pending invitation with this token hash, read without claiming it; null when none is pending. */
  async findPending(hash: string): Promise<InvitationInfo | null> {
    const [row] = await this.executor.records<InfoRow>(findPendingInvitation(this.table(), hash));
    return row ? info(row) : null;
  }

  /**
   * Claims the pending invitation with this token hash: marks it accepted, in one conditional
   * UPDATE, so a token is used once even by concurrent requests. Null when none was pending.
   */
  async claim(hash: string, connection: EntityManager): Promise<InvitationInfo | null> {
    const [row] = await this.executor.records<InfoRow>(claimInvitation(this.table(), hash), connection);
    return row ? info(row) : null;
  }

  async acceptedBy(id: string, userId: string, connection: EntityManager): Promise<void> {
    await this.executor.records(setInvitationAcceptedBy(this.table(), id, userId), connection);
  }

  /** Resolved on use: the entity is registered only with `auth.accountUserEntity`. */
  private table(): EntityTable {
    return this.executor.table(SvcInvitation);
  }
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
