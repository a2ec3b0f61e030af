import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../interfaces/auth-context.interface';
import { SvcIdentityService } from '../identity/identity.service';

/** One organization the caller may act in. */
export interface OrganizationChoice {
  organizationId: string;
  /** The organization entity's `name` (or `title`), when it has one. */
  name: string | null;
  /** The caller's roles there: the user's own roles and the membership's. */
  roles: string[];
  /** Whether the caller's credential is bound to it. */
  current: boolean;
}

/** `GET /api/auth/organizations`: where the caller belongs, across tenants, read from their own memberships. */
@Injectable()
export class SvcOrganizationsService {
  constructor(private readonly identity: SvcIdentityService) {}

  async organizationsOf(auth: AuthContext): Promise<OrganizationChoice[]> {
    const current = auth.organizationId;
    const memberships = auth.via === 'jwt' && auth.userId !== null ? await this.userOrganizations(auth.userId) : null;
    // An API key, a user without memberships, or a token of another service: only the organization it is bound to.
    const entries = memberships ?? (current === null ? [] : [{ organizationId: current, roles: auth.roles }]);
    const names = await this.identity.organizationNames(entries.map((entry) => entry.organizationId));
    return entries.map(({ organizationId, roles }) => ({
      organizationId,
      name: names.get(organizationId) ?? null,
      roles,
      current: organizationId === current,
    }));
  }

  private async userOrganizations(userId: string): Promise<{ organizationId: string; roles: string[] }[] | null> {
    const memberships = await this.identity.memberships(userId);
    if (memberships === null) return null;
    const user = await this.identity.userById(userId);
    if (!user || !user.active) return [];
    return memberships.map(({ organizationId, roles }) => ({ organizationId, roles: [...new Set([...user.roles, ...roles])] }));
  }
}
