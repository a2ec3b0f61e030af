import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Observable } from 'rxjs';
import type { AuthContext } from '../interfaces/auth-context.interface';
import type { ColumnModel, EntityModel, ServiceModel } from '../schema/model';
import { PermissionRules } from '../scope/permission-rules';
import { SVC_MODEL } from '../svc.constants';
import { CRUD_ENTITY_KEY } from './crud-entity.decorator';

type CreateRequest = { body?: unknown; auth?: AuthContext | null };

/**
 * `set` of `permissions` fills a field before validation, so a required field that `set` provides need
 * not be sent: on a create route, each required field the body leaves out is filled with the value the
 * caller's `create` rule forces on it, before the body is validated. `CrudService` forces the `set` values
 * again when it writes (and refuses what the rules refuse), so this only spares a 400.
 */
@Injectable()
export class SvcPresetValuesInterceptor implements NestInterceptor {
  private readonly rules: PermissionRules;

  constructor(
    private readonly reflector: Reflector,
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
  ) {
    this.rules = new PermissionRules(model, new Map(model.entities.map((entity) => [entity.name, entity])));
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const name = this.reflector.getAllAndOverride<string | undefined>(CRUD_ENTITY_KEY, [context.getHandler(), context.getClass()]);
    const entity = this.model.entities.find((candidate) => candidate.name === name);
    const request = context.switchToHttp().getRequest<CreateRequest>();
    if (entity === undefined || entity.permissions === null) return next.handle();
    const preset = this.preset(entity, request.auth ?? null);
    if (Object.keys(preset).length === 0) return next.handle();
    const body = request.body;
    if (isObject(body)) {
      const records = Array.isArray(body.bulk) ? body.bulk : [body];
      for (const record of records) if (isObject(record)) fill(record, preset);
    }
    return next.handle();
  }

  /** The values the caller's first `create` rule (in `.svcrc` order) forcing each required field gives it. */
  private preset(entity: EntityModel, auth: AuthContext | null): Record<string, unknown> {
    const required = new Set(entity.columns.filter(isRequired).map((column) => column.name));
    const preset: Record<string, unknown> = {};
    for (const rule of this.rules.callerRules(entity, { auth }, 'create') ?? []) {
      for (const [field, value] of Object.entries(rule.set ?? {})) if (required.has(field) && !(field in preset)) preset[field] = value;
    }
    return preset;
  }
}

/** A field or foreign key a create must give: not nullable, without a default, written by callers. */
function isRequired(column: ColumnModel): boolean {
  return !column.nullable && !column.readOnly && column.field?.default === undefined;
}

function fill(record: Record<string, unknown>, preset: Readonly<Record<string, unknown>>): void {
  for (const [field, value] of Object.entries(preset)) if (record[field] === undefined) record[field] = value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
