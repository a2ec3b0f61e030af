import type { EntityTable } from '../entity-table';
import type { Statement } from '../statement';

/** What the API shows of an invitation: never its token or hash. */
export const INVITATION_INFO_FIELDS = ['id', 'organizationId', 'email', 'role', 'invitedBy', 'expires_at', 'created_at'] as const;

export interface NewInvitationRow {
  readonly organizationId: string;
  readonly email: string;
  readonly role: string | null;
  readonly hash: string;
  readonly invitedBy: string | null;
  readonly expiresAt: Date;
}

export function insertInvitation(t: EntityTable, invitation: NewInvitationRow): Statement {
  const columns = ['organizationId', 'email', 'role', 'hash', 'invitedBy', 'expires_at'].map((property) => t.column(property));
  return {
    text: `INSERT INTO ${t.name} (${columns.join(', ')}) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${t.select(INVITATION_INFO_FIELDS)}`,
    values: [invitation.organizationId, invitation.email, invitation.role, invitation.hash, invitation.invitedBy, invitation.expiresAt],
  };
}

/** Pending invitations of an organization, oldest first. */
export function pendingInvitations(t: EntityTable, organizationId: string): Statement {
  return {
    text:
      `SELECT ${t.select(INVITATION_INFO_FIELDS)} FROM ${t.name} WHERE ${t.column('organizationId')} = $1 AND ${pendingSql(t)}` +
      ` ORDER BY ${t.column('created_at')}, ${t.column('id')}`,
    values: [organizationId],
  };
}

/** Revokes a pending invitation of the organization; returns its id when there was one. */
export function revokeInvitation(t: EntityTable, id: string, organizationId: string): Statement {
  return {
    text:
      `UPDATE ${t.name} SET ${t.column('revoked_at')} = CURRENT_TIMESTAMP WHERE ${t.column('id')} = $1 ` +
      `AND ${t.column('organizationId')} = $2 AND ${pendingSql(t)} RETURNING ${t.select(['id'])}`,
    values: [id, organizationId],
  };
}

/** The pending invitation with this token hash, read without claiming it. */
export function findPendingInvitation(t: EntityTable, hash: string): Statement {
  return {
    text: `SELECT ${t.select(INVITATION_INFO_FIELDS)} FROM ${t.name} WHERE ${t.column('hash')} = $1 AND ${pendingSql(t)}`,
    values: [hash],
  };
}

/** Marks the pending invitation with this token hash accepted: one conditional UPDATE, so a token is used once. */
export function claimInvitation(t: EntityTable, hash: string): Statement {
  return {
    text:
      `UPDATE ${t.name} SET ${t.column('accepted_at')} = CURRENT_TIMESTAMP WHERE ${t.column('hash')} = $1 AND ${pendingSql(t)} ` +
      `RETURNING ${t.select(INVITATION_INFO_FIELDS)}`,
    values: [hash],
  };
}

export function setInvitationAcceptedBy(t: EntityTable, id: string, userId: string): Statement {
  return { text: `UPDATE ${t.name} SET ${t.column('acceptedBy')} = $2 WHERE ${t.column('id')} = $1`, values: [id, userId] };
}

/** Not accepted, not revoked, not expired. */
function pendingSql(t: EntityTable): string {
  return `${t.column('accepted_at')} IS NULL AND ${t.column('revoked_at')} IS NULL AND ${t.column('expires_at')} > CURRENT_TIMESTAMP`;
}
