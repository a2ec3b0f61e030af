import { BadRequestException, type CanActivate, type ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { withOrganization } from '../auth-context';
import { ORGANIZATION_HEADER } from '../auth.constants';
import { header } from '../credentials';
import { SvcIdentityService } from '../identity/identity.service';
import { CRUD_ENTITY_KEY } from '../../decorators/crud-entity.decorator';
import { ScopeViolationException } from '../../exceptions/scope.exceptions';
import type { AuthContext } from '../../interfaces/auth-context.interface';
import { CRUD_OPERATIONS, type CrudOperation, type EntityModel, type ServiceModel } from '../../schema/model';
import { CRUD_OPERATION_KEY, IS_PUBLIC_KEY, SKIP_SCOPE_KEY, SVC_MODEL } from '../../svc.constants';
import { missingContext } from '../../scope/scope-enforcer';
import { decideScope } from '../../scope/scope-rules';
import { assertPermitted } from '../../scope/operation-permissions';
import { RecordPermissions } from '../../scope/record-permissions';

type ScopeRequest = {
  headers: Record<string, string | string[] | undefined>;
  auth?: AuthContext | null;
  params?: Record<string, string | undefined>;
};

interface DeclaredRoute {
  readonly entity: EntityModel;
  readonly operations: readonly CrudOperation[];
}

/** Longest accepted `X-Organization-Id`. */
const MAX_ORGANIZATION_ID_LENGTH = 128;

/**
 * Layer 2, which data: runs after `SvcAuthGuard`. Settles the organization of the request
 * (`X-Organization-Id` must match the credential's; it supplies one only when the credential
 * has none and may act in it) and, on controllers marked `@CrudEntity()`, refuses a request
 * without scope context with 403. The rows themselves are filtered by `CrudService`, which
 * enforces scope whether or not this guard runs. Honors `@Public()` and `@SkipScopeCheck()`.
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(
    protected readonly reflector: Reflector,
    @Inject(SVC_MODEL) protected readonly model: ServiceModel,
    protected readonly identity: SvcIdentityService,
    // Optional so that a subclass written for the three-argument constructor still compiles and runs.
    @Optional() protected readonly records?: RecordPermissions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScopeRequest>();
    if (this.flag(context, IS_PUBLIC_KEY) || this.flag(context, SKIP_SCOPE_KEY)) {
      // They skip the scope, not the permissions.
      const route = this.declaredRoute(context);
      this.checkPermissions(route, request);
      await this.checkRecord(route, request, true);
      return true;
    }
    const requested = this.requestedOrganization(request);
    if (request.auth && requested !== undefined) {
      const current = request.auth.organizationId;
      if (current !== null && current !== undefined) {
        if (String(current) !== requested) {
          throw new ScopeViolationException('X-Organization-Id does not match the organization of your credential');
        }
      } else {
        request.auth = await this.enterOrganization(request.auth, requested);
      }
    }
    this.checkEntity(context, request);
    await this.checkRecord(this.declaredRoute(context), request, false);
    return true;
  }

  /**
   * A custom route declaring one operation on a record (`:id`): the row rules of `permissions` for that
   * record, before the handler runs (404 when the caller may not read it, 403 when it may read but not
   * change it). No query runs when no row rule applies to the caller.
   */
  private async checkRecord(route: DeclaredRoute | null, request: ScopeRequest, skipScope: boolean): Promise<void> {
    const id = request.params?.id;
    if (!route || !this.records || route.operations.length !== 1 || typeof id !== 'string') return;
    await this.records.assertRecord(route.entity, { auth: request.auth ?? null, skipScope }, route.operations[0]!, id);
  }

  /**
   * The context acting in `organizationId`, for a credential that carries none. Allowed for a
   * service API key without organization, and for a user with a membership row there
   * (`auth.accountUserEntity`; the membership's roles are added). Anything else: 403.
   * Override to plug in your own membership rules.
   */
  protected async enterOrganization(auth: AuthContext, organizationId: string): Promise<AuthContext> {
    if (auth.via === 'api-key') return withOrganization(auth, organizationId, this.model.auth);
    if (auth.userId && this.model.auth?.accountUserEntity) {
      const membership = await this.identity.membership(auth.userId, organizationId);
      if (membership) {
        const roles = [...new Set([...(auth.roles ?? []), ...membership.roles])];
        return { ...withOrganization(auth, organizationId, this.model.auth), roles };
      }
      throw new ScopeViolationException(`No membership in organization ${organizationId}`);
    }
    throw new ScopeViolationException('X-Organization-Id cannot select an organization for this credential');
  }

  /**
   * On a `@CrudEntity()` controller: 403 now when no role of the caller is granted the route's
   * declared operation (`@CrudOperation()`, `permissions`), or when it needs scope context the
   * request lacks. A route that declares none must pass both for every operation.
   */
  protected checkEntity(context: ExecutionContext, request: ScopeRequest): void {
    const route = this.declaredRoute(context);
    if (!route) return;
    // Before any handler code runs, so a custom route that writes by other means is refused too.
    this.checkPermissions(route, request);
    const entities = new Map(this.model.entities.map((candidate) => [candidate.name, candidate]));
    for (const operation of route.operations) {
      const decision = decideScope(route.entity, { auth: request.auth ?? null, skipScope: false }, operation, entities);
      if (decision.kind === 'missing') throw missingContext(route.entity, decision.key);
    }
  }

  /** 403 when no role of the caller is granted one of the route's operations (a public route has no caller, so no role). */
  private checkPermissions(route: DeclaredRoute | null, request: ScopeRequest): void {
    if (!route) return;
    for (const operation of route.operations) assertPermitted(route.entity, { auth: request.auth ?? null }, operation, this.model);
  }

  /**
   * The `@CrudEntity()` of the route and the operations it performs: the one `@CrudOperation()` declares,
   * or, undeclared (a custom route), every operation, the strictest reading.
   */
  private declaredRoute(context: ExecutionContext): DeclaredRoute | null {
    const targets = [context.getHandler(), context.getClass()];
    const name = this.reflector.getAllAndOverride<string | undefined>(CRUD_ENTITY_KEY, targets);
    const entity = name ? this.model.entities.find((candidate) => candidate.name === name) : undefined;
    if (!entity) return null;
    const declared = this.reflector.getAllAndOverride<CrudOperation | undefined>(CRUD_OPERATION_KEY, targets);
    return { entity, operations: declared === undefined ? CRUD_OPERATIONS : [declared] };
  }

  private requestedOrganization(request: ScopeRequest): string | undefined {
    const value = header(request, ORGANIZATION_HEADER);
    if (value === undefined) return undefined;
    const trimmed = value.trim();
    if (trimmed === '' || trimmed.length > MAX_ORGANIZATION_ID_LENGTH || /[\u0000-\u001f\u007f]/.test(trimmed)) {
      throw new BadRequestException('Invalid X-Organization-Id header');
    }
    return trimmed;
  }

  private flag(context: ExecutionContext, key: string): boolean {
    return this.reflector.getAllAndOverride<boolean>(key, [context.getHandler(), context.getClass()]) === true;
  }
}
