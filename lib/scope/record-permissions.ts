/**
 * The record check of a custom route (`@CrudOperation('get' | 'update' | 'delete')` with an `:id`):
 * the same answer the generated route gives before any handler code runs, so a route that reads
 * or writes by its own means still meets the row rules of `permissions`. A record the caller may
 * not read is 404; one it reads but may not update or delete is 403.
 */
import { ForbiddenException, NotFoundException } from '@nestjs/common';
import type { AuthContext } from '../interfaces/auth-context.interface';
import { validateQuery } from '../query/validate-query';
import type { CrudOperation, EntityModel, ServiceModel } from '../schema/model';
import type { RootCondition } from '../sql/conditions';
import { ScopeViolationException } from '../exceptions/scope.exceptions';
import { possibleKey } from '../sql/predicates';
import type { ReadExecutor } from '../sql/read.executor';
import { PERMISSION_OF } from './operation-permissions';
import { PermissionRules } from './permission-rules';
import type { ScopeEnforcer } from './scope-enforcer';

export interface RecordRequest {
  readonly auth: AuthContext | null;
  readonly skipScope: boolean;
}

export class RecordPermissions {
  private readonly rules: PermissionRules;
  private readonly entities: ReadonlyMap<string, EntityModel>;

  constructor(
    private readonly model: ServiceModel,
    private readonly reader: ReadExecutor,
    private readonly scope: ScopeEnforcer,
  ) {
    this.entities = new Map(model.entities.map((entity) => [entity.name, entity]));
    this.rules = new PermissionRules(model, this.entities);
  }

  /** Throws 404 or 403 when row rules leave the record out of `operation`; does nothing (no query) when no row rule applies. */
  async assertRecord(entity: EntityModel, request: RecordRequest, operation: CrudOperation, id: string): Promise<void> {
    if (operation !== 'get' && operation !== 'update' && operation !== 'delete') return;
    const permission = PERMISSION_OF[operation];
    const restricted =
      this.rules.rowWhere(entity, request, 'read') !== null || (permission !== 'read' && this.rules.rowWhere(entity, request, permission) !== null);
    if (!restricted) return;
    const primary = entity.columns.find((column) => column.kind === 'primary');
    const key = primary ? possibleKey(primary, id) : null;
    const notFound = new NotFoundException(`${entity.name} ${id} not found`);
    if (key === null) throw notFound;
    const byId: RootCondition = (root, sql) => `${root.alias}.${root.plan.primaryKeyColumn} = ${sql.param(key)}`;
    const reachable = async (each: CrudOperation) =>
      this.reader.exists(this.emptyQuery(entity), [
        byId,
        ...this.rules.rootConditions(entity, request, PERMISSION_OF[each]),
        ...(request.skipScope ? [] : this.scope.rootConditions(entity, request, each)),
      ]);
    if (await reachable(operation)) return;
    // The answers of the generated routes (CrudService), in their order: another tenant's record is a scope refusal.
    if (!request.skipScope && (await this.scope.outsideScope(entity, key, request, operation))) {
      throw new ScopeViolationException(`${entity.name} ${id} is outside your scope`);
    }
    if (operation !== 'get' && (await reachable('get'))) {
      throw new ForbiddenException(`${permission} on ${entity.name} ${id} is not permitted for your roles`);
    }
    throw notFound;
  }

  /** Deleted rows included: the record of `PATCH /:id/recover` is a soft-deleted one; the service then decides on its state. */
  private emptyQuery(entity: EntityModel) {
    return validateQuery(
      { fields: null, where: null, sort: [], join: [], limit: null, page: null, offset: null, includeDeleted: true, count: null, cursor: null },
      entity,
      this.entities,
      this.model.api.pagination,
    );
  }
}
