import { BadRequestException, ForbiddenException, NotFoundException } from '@nestjs/common';
import type { ObjectLiteral } from 'typeorm';
import { prepareIdentityValues } from '../auth/identity/identity-values';
import type { CrudRequest } from '../interfaces/crud-request.interface';
import type { Page } from '../interfaces/page.interface';
import { validateQuery } from '../query/validate-query';
import type { ParsedQuery, ValidatedQuery } from '../query/query.types';
import type { CrudOperation, EntityModel } from '../schema/model';
import { ScopeViolationException } from '../exceptions/scope.exceptions';
import { IdentityRules } from '../scope/identity-rules';
import { assertPermitted, assertRelationsReadable, PERMISSION_OF } from '../scope/operation-permissions';
import { PermissionRules } from '../scope/permission-rules';
import { ReadableCells } from '../scope/readable-cells';
import { type CellAccess, NEVER } from '../sql/cell-access';
import { readableRecord } from '../sql/readable-record';
import { allChecks, type WriteAdmission, WriteNotPermittedException, WritePermissions } from '../scope/write-permissions';
import { isWriteCheckFailure } from '../sql/write-check';
import type { Replace } from '../sql/write.executor';
import type { ScopeEnforcer } from '../scope/scope-enforcer';
import { runtimeParts, type SvcRuntime } from './svc-runtime';
import type { RuntimeParts } from './runtime-parts';
import type { EntityPlan } from '../sql/entity-plan';
import { INT4_MAX, rowStateSql } from '../sql/predicates';
import { rawRootConditions, type RawSqlCondition, type RelatedCondition, type RootCondition } from '../sql/conditions';
import type { FieldCondition } from '../query/field-conditions';
import { fieldRootConditions } from './field-root-conditions';
import { TOTAL_COUNT_CAPPED_HEADER, TOTAL_COUNT_HEADER } from '../query/total-count-header';
import { NEXT_CURSOR_HEADER } from '../query/next-cursor-header';
import { continueAfterCursor, cursorBinding, nextCursor } from './list-cursor';
import { contextValue, decideScope } from '../scope/scope-rules';
import { RecordPreconditions } from './record-preconditions';
import type { SqlExecutor } from '../sql/sql-executor';
import { AuthorityChanges } from './authority-changes';
import type { FilterChange, FilterMatch } from '../sql/filter-write.statement';
import type { SqlContext } from '../sql/sql-context';
import { assertToOneJoins, credentialRecheck, lastEventId, recordAsRead, streamCredential, viewKey, viewPartition, viewQuery } from './change-stream-request';
import {
  assertConflictValues,
  assertFiltered,
  assertUpserted,
  conflictColumn,
  type FilterWriteResponse,
  tooManyRows,
} from './bulk-write-checks';

const EMPTY_QUERY: ParsedQuery = {
  fields: null,
  where: null,
  sort: [],
  join: [],
  limit: null,
  page: null,
  offset: null,
  includeDeleted: false,
  count: null,
  cursor: null,
};

type Id = string | number;

/**
 * The CRUD behaviour of one entity. Generated services extend it; override the
 * `protected` hooks to add business rules without touching generated code.
 *
 * Tenant scope (`scopeBy`) is enforced here, on every statement, whether or not the
 * guards are enabled, and cannot be dropped by overriding a hook: only `skipScope`
 * (`@SkipScopeCheck()`, `@Public()`) or a `bypassRoles` role turns it off. So are the
 * operation `permissions` of `.svcrc`, which only `skipPermissions` (system work) turns off.
 */
export class CrudService<T extends ObjectLiteral> {
  /** The name of the entity, as in `.svcrc`. */
  protected readonly entityName: string;
  private readonly runtime: RuntimeParts;
  private readonly entity: EntityModel;
  private readonly scope: ScopeEnforcer;
  private readonly identity: IdentityRules;
  private readonly preconditions: RecordPreconditions;
  private readonly authority: AuthorityChanges;
  private readonly permissions: PermissionRules;
  private readonly writes: WritePermissions;
  /** The validated query of a paginated `getMany()`, handed to the `findMany()` it calls so that it is not validated twice. */
  private readonly validatedPages = new WeakMap<CrudRequest, ValidatedQuery>();
  private readonly cellsByRequest = new WeakMap<CrudRequest, ReadableCells>();

  constructor(runtime: SvcRuntime, entityName: string) {
    this.runtime = runtimeParts(runtime);
    this.entityName = entityName;
    this.entity = this.runtime.entity(entityName);
    this.scope = this.runtime.scope;
    this.identity = new IdentityRules(this.runtime.model);
    this.preconditions = new RecordPreconditions(this.runtime.model.api.requireIfMatch);
    this.authority = new AuthorityChanges(this.runtime.model, this.identity);
    this.permissions = new PermissionRules(this.runtime.model, this.runtime.entities);
    this.writes = new WritePermissions(this.runtime.model, this.runtime.entities);
  }

  /**
   * `GET /<entities>`, as @nestjsx/crud answers it: a page object when the query has `page` or
   * `offset` (or `api.pagination.alwaysPaginate` is set), otherwise a plain array of at most
   * `limit` rows (`maxLimit` without `limit`). Either way the response's `X-Total-Count` header
   * gives the number of matching rows. The page object comes from `findMany()`, so an override of
   * it still serves paginated lists.
   */
  async getMany(request: CrudRequest): Promise<Page<Partial<T>> | Partial<T>[]> {
    const query = this.validate(request.query, request);
    if (query.paginated) {
      this.validatedPages.set(request, query);
      try {
        return await this.findMany(request);
      } finally {
        this.validatedPages.delete(request);
      }
    }
    const { data, total, totalCapped, after } = await this.runtime.reader.list(
      query,
      this.allConditions(request, 'find'),
      this.related(request, 'find'),
      this.cells(request),
    );
    this.setListHeaders(
      request,
      total,
      totalCapped,
      nextCursor(query, request.query, after, this.runtime.cursors, this.cursorBinding(request)),
    );
    return data as Partial<T>[];
  }

  /** One page of records matching the query, whatever the query says about pagination: for your own code. */
  async findMany(request: CrudRequest): Promise<Page<Partial<T>>> {
    // From a paginated getMany(): the same request, already validated (alwaysPaginate changes nothing on a paginated query).
    const validated = this.validatedPages.get(request);
    this.validatedPages.delete(request);
    return this.page(validated ?? this.validate(request.query, request, true), request);
  }

  /** `GET /<entities>/:id`, with the record's `ETag` (`If-None-Match` is answered by `@CrudOperation('get')`). */
  async findOne(id: Id, request: CrudRequest): Promise<Partial<T>> {
    const query = this.validate(
      {
        ...request.query,
        where: null,
        sort: [],
        limit: null,
        page: null,
        offset: null,
        count: null,
        cursor: null,
      },
      request,
    );
    this.assertPossibleId(id);
    const conditions = [this.idCondition(id), ...this.allConditions(request, 'get')];
    const record = await this.runtime.reader.one(query, conditions, this.related(request, 'get'), this.cells(request));
    if (!record) throw await this.missing(id, request, 'get');
    this.preconditions.sendTag(request, record, request.query.fields !== null || query.joins.length > 0);
    return record as Partial<T>;
  }

  /**
   * `GET /<entities>/changes` of a `realtime` entity: a Server-Sent Events stream of what changes in the caller's
   * view of the list (`filter`, `or`, `s`, `fields`, to-one `join`), checked as that list is. Answers 400/403
   * as the list would, 429 past `api.realtime.maxStreamsPerCredential`; otherwise writes the stream on
   * `httpResponse` (the handler's `@Res()`) and returns once it is open. See docs/realtime.md.
   */
  async streamChanges(request: CrudRequest, httpRequest: object, httpResponse: object): Promise<void> {
    const feed = this.runtime.changes;
    if (!this.entity.realtime || feed === null) throw new NotFoundException(`${this.entity.name} has no change feed: set "realtime": true in .svcrc`);
    const parsed = viewQuery(request.query);
    const query = this.validate(parsed, request);
    assertToOneJoins(query);
    const conditions = [...this.allConditions(request, 'find')];
    const related = this.related(request, 'find');
    const cells = this.cells(request);
    const before = this.runtime.views.view(this.entity.name, parsed, request.auth);
    // The matcher does not see the hooks: with them overridden, whether a row was in the view is not known.
    const hooked = this.conditions !== CrudService.prototype.conditions || this.rawSqlConditions !== CrudService.prototype.rawSqlConditions;
    // A record in the view answers for itself when nothing but its own columns makes the answer: no join, no field rule.
    const rules = this.permissions.callerRules(this.entity, request, 'read');
    const selfAnswering = !hooked && query.joins.length === 0 && (rules === null || rules.every((rule) => rule.fields === null));
    await feed.open({
      entity: this.entity,
      viewKey: viewKey(parsed, request, this.runtime.model, hooked),
      partition: viewPartition(decideScope(this.entity, request, 'find', this.runtime.entities)),
      userId: request.auth?.userId ?? null,
      credential: streamCredential(httpRequest),
      stillAllowed: credentialRecheck(httpRequest, request.auth),
      lastEventId: lastEventId(httpRequest),
      response: httpResponse,
      view: {
        wasIn: (record) => (hooked ? 'unknown' : before.matches(record)),
        readNow: async (id) => {
          if (typeof id === 'number' && id > INT4_MAX) return null;
          return this.runtime.reader.one(query, [this.idCondition(id), ...conditions], related, cells, false);
        },
        present: (record) => (selfAnswering ? recordAsRead(record, query) : null),
      },
    });
  }

  /** `POST /<entities>`. */
  async createOne(body: object, request: CrudRequest): Promise<Partial<T>> {
    const { values, admission } = await this.createValues(body, request);
    const writer = this.runtime.writerFor(request, this.answerCells(request));
    const [created] = await this.checked('create', writer.insert(this.plan, [values], admission?.check ?? null));
    await this.consentAfterCreate([created], request);
    const answer = readableRecord(created);
    this.preconditions.sendTag(request, answer);
    return answer as Partial<T>;
  }

  /** `POST /<entities>/bulk`: every record or none. */
  async createMany(bodies: readonly object[], request: CrudRequest): Promise<Partial<T>[]> {
    if (request.query.onConflict !== undefined) return this.upsertMany(bodies, request, request.query.onConflict);
    const rows: Record<string, unknown>[] = [];
    const admissions: (WriteAdmission | null)[] = [];
    // One at a time: password hashing is deliberately slow and CPU-bound.
    for (const body of bodies) {
      const { values, admission } = await this.createValues(body, request);
      rows.push(values);
      admissions.push(admission);
    }
    const writer = this.runtime.writerFor(request, this.answerCells(request));
    const created = await this.checked('create', writer.insert(this.plan, rows, allChecks(admissions)));
    await this.consentAfterCreate(created, request);
    return created.map((record) => readableRecord(record)) as Partial<T>[];
  }

  /** `PATCH /<entities>/:id`: changes the given fields only. */
  async updateOne(id: Id, body: object, request: CrudRequest): Promise<Partial<T>> {
    return this.write(id, body, request, false);
  }

  /**
   * `PUT /<entities>/:id`. By default (`api.put: "merge"`, as @nestjsx/crud's `replaceOne`) the body is
   * written over the stored row: omitted fields keep their values. With `api.put: "replace"` omitted
   * fields return to their default, or null; an omitted password, and an omitted authority field of
   * an identity entity, still keep their stored value. A missing id answers 404 either way.
   */
  async replaceOne(id: Id, body: object, request: CrudRequest): Promise<Partial<T>> {
    return this.write(id, body, request, this.runtime.model.api.put === 'replace');
  }

  /** `DELETE /<entities>/:id` (soft when the entity has `softDelete`), with `If-Match` when sent. */
  async deleteOne(id: Id, request: CrudRequest): Promise<void> {
    const versioned = this.preconditions.conditions(request, `Deleting ${this.entity.name} ${id}`, this.cells(request));
    this.assertPossibleId(id);
    const conditions = [...this.allConditions(request, 'delete'), ...versioned];
    const writer = this.runtime.writerFor(request, this.answerCells(request));
    if (this.identity.kindOf(this.entity) === 'organization') {
      // Its members' tokens name it: read who they are before the delete takes their memberships with it.
      const members = await this.runtime.identity.usersOfOrganization(String(id));
      const revoked: string[] = [];
      const deleted = await writer.deleteTracked(this.plan, id, conditions, (changes, executor) =>
        this.revokeSessions(changes.length > 0 ? members : [], executor, revoked),
      );
      this.endRevokedStreams(revoked);
      if (!deleted) throw await this.missing(id, request, 'delete');
      return;
    }
    if (!this.authority.tracks(this.entity)) {
      if (!(await writer.delete(this.plan, id, conditions))) throw await this.missing(id, request, 'delete');
      return;
    }
    // The sessions it ends are revoked in the delete's own transaction: both happen, or neither.
    const revoked: string[] = [];
    const change = await writer.deleteTracked(this.plan, id, conditions, (changes, executor) =>
      this.revokeSessions(this.authority.afterDelete(this.entity, changes[0] ?? null), executor, revoked),
    );
    this.endRevokedStreams(revoked);
    if (!change) throw await this.missing(id, request, 'delete');
  }

  /** `PATCH /<entities>/:id/recover`: restores a soft-deleted record (`If-Match`: the version of the deleted row). */
  async recoverOne(id: Id, request: CrudRequest): Promise<Partial<T>> {
    const versioned = this.preconditions.conditions(request, `Recovering ${this.entity.name} ${id}`, this.cells(request));
    this.assertPossibleId(id);
    const conditions = [...this.allConditions(request, 'update'), ...versioned];
    const check = this.writes.recoverCheck(this.entity, request);
    const record = await this.checked('update', this.runtime.writerFor(request, this.answerCells(request)).recover(this.plan, id, conditions, check));
    if (!record) {
      if (versioned.length > 0 && (await this.exists(id, request, 'update', true)))
        throw this.preconditions.failed(`${this.entity.name} ${id}`);
      throw new NotFoundException(`${this.entity.name} ${id} not found among deleted records`);
    }
    const answer = readableRecord(record);
    this.preconditions.sendTag(request, answer);
    return answer as Partial<T>;
  }

  /**
   * `POST /<entities>/bulk?onConflict=<unique field>`: each record is inserted, or updates the
   * existing record with the same value of that field (only the fields it gives), in one
   * transaction. A conflicting record the caller may not update (another tenant's, one the
   * `conditions()` hook hides for `update`, a soft-deleted one) answers 409 and nothing is written.
   * Identity entities (users, memberships, organizations of `auth`) refuse it: their writes have
   * per-row rules (hashing, session revocation).
   */
  async upsertMany(bodies: readonly object[], request: CrudRequest, field: string): Promise<Partial<T>[]> {
    const column = conflictColumn(this.entity, field);
    this.refuseIfMatch(request, `an upsert inserts or updates several ${this.entity.name} records`, `PATCH /${this.entity.route}/:id`);
    if (this.identity.kindOf(this.entity) !== null) {
      throw new BadRequestException(`onConflict: ${this.entity.name} holds identities of "auth" and cannot be upserted`);
    }
    // Refused whole when no role of the caller may update, before any row is prepared.
    const updatable = this.allConditions(request, 'update');
    const rows: Record<string, unknown>[] = [];
    const created: (WriteAdmission | null)[] = [];
    const updated: (WriteAdmission | null)[] = [];
    for (const body of bodies) {
      const { values, admission } = await this.createValues(body, request);
      // The same values are inserted or written over the existing row: the update rules must admit them too.
      // The conflict field keeps its value on an update: it is not written there.
      const written = WritePermissions.writtenFields(this.entity, body).filter((name) => name !== column.name);
      const update = this.writes.admit(this.entity, request, 'update', written);
      this.assertSameSet(admission, update);
      rows.push(values);
      created.push(admission);
      updated.push(update);
    }
    assertConflictValues(column, rows);
    const admittedRows = new Map(updated.flatMap((update) => (update?.rows ? [[update.roles, update.rows] as const] : [])));
    const conditions = [...updatable, ...admittedRows.values()];
    // What only create's `set` forces is written on insert: an update writes what the update rules admit.
    const forcedOnUpdate = new Set(updated.flatMap((admission) => Object.keys(admission?.set ?? {})));
    const insertOnly = new Set(
      created.flatMap((admission) => Object.keys(admission?.set ?? {})).filter((name) => !forcedOnUpdate.has(name)),
    );
    const checks = { inserted: allChecks(created), updated: allChecks(updated), insertOnly };
    const written = await this.checked(
      'create or update',
      this.runtime
        .bulkWriterFor(request, this.answerCells(request))
        .upsert(this.plan, rows, column, conditions, (result) => assertUpserted(this.entity, column, rows, result), checks),
    );
    return written.map((row) => readableRecord(row.record) as Partial<T>);
  }

  /**
   * `PATCH /<entities>?filter=...` (entities with `bulkWrites`): writes the body's fields to every
   * record the same list would return, in one statement. Answers how many changed, and the
   * records with `return=rows`. Over `api.bulkWriteLimit` matches: 413 and nothing changes.
   */
  async updateMany(body: object, request: CrudRequest): Promise<FilterWriteResponse<Partial<T>>> {
    const match = this.filterMatch(request, 'update');
    const admission = this.writes.admit(this.entity, request, 'update', WritePermissions.writtenFields(this.entity, body));
    const values = await this.prepareUpdate(body, request);
    if (admission?.set) Object.assign(values, admission.set);
    await this.scope.prepareWrite(this.entity, values, request, 'update', false);
    const columns = this.plan.writableColumns.filter((column) => values[column.model.name] !== undefined);
    if (columns.length === 0) throw new BadRequestException('The body sets no field');
    const plan = this.plan;
    const assignments = (sql: SqlContext) =>
      columns.map((column) => `${column.sql} = ${sql.param(plan.persistentValue(column, values[column.model.name]))}`);
    const writable = admission?.rows ? { ...match, conditions: [...match.conditions, admission.rows] } : match;
    return this.checked(
      'update',
      this.writeMatching(writable, { kind: 'set', assignments, check: admission?.check ?? null }, 'updated', request),
    );
  }

  /** `DELETE /<entities>?filter=...` (entities with `bulkWrites`): deletes (soft when the entity has it) every matching record. */
  async deleteMany(request: CrudRequest): Promise<FilterWriteResponse<Partial<T>>> {
    const match = this.filterMatch(request, 'delete');
    const plan = this.plan;
    const change: FilterChange = plan.model.softDelete
      ? { kind: 'set', assignments: () => [`${plan.column('deleted_at')} = CURRENT_TIMESTAMP`] }
      : { kind: 'delete' };
    return this.writeMatching(match, change, 'deleted', request);
  }

  /** Values to insert for one create; override to derive fields. */
  protected async prepareCreate(body: object, _request: CrudRequest): Promise<Record<string, unknown>> {
    return { ...body };
  }

  /** Values to write for an update or replace; override to derive fields. */
  protected async prepareUpdate(body: object, _request: CrudRequest): Promise<Record<string, unknown>> {
    return { ...body };
  }

  /**
   * Extra conditions on the rows an operation reads or writes, ANDed with the tenant scope and the
   * identity rules (which always apply and are not part of this hook): fields of this entity, an
   * operator of `s` and a value, checked as `s` is. A field the entity does not have, an operator
   * that does not fit it or a value not of its type answers 400 naming `conditions()`.
   */
  protected conditions(_request: CrudRequest, _operation: CrudOperation): FieldCondition[] {
    return [];
  }

  /**
   * Conditions written in SQL, ANDed like those of `conditions()`: for what its operators cannot say.
   * **Bypasses the checks of `conditions()`**: no field name is checked beyond `row.column()`, and
   * whatever text you return reaches the database. Bind every value with `sql.param()`.
   */
  protected rawSqlConditions(_request: CrudRequest, _operation: CrudOperation): RawSqlCondition[] {
    return [];
  }

  private get plan(): EntityPlan {
    return this.runtime.plans.get(this.entity.name);
  }

  private async write(id: Id, body: object, request: CrudRequest, replace: boolean): Promise<Partial<T>> {
    const versioned = this.preconditions.conditions(request, `Changing ${this.entity.name} ${id}`, this.cells(request));
    this.assertPossibleId(id);
    const conditions = [...this.allConditions(request, 'update'), ...versioned];
    const admission = this.writes.admit(this.entity, request, 'update', WritePermissions.writtenFields(this.entity, body));
    if (admission?.rows) conditions.push(admission.rows);
    const values = await this.prepareUpdate(body, request);
    if (admission?.set) Object.assign(values, admission.set);
    this.identity.checkWrite(this.entity, body, values, request, 'update', id);
    await this.runtime.memberships.check(this.entity, values, request, id);
    await this.scope.prepareWrite(this.entity, values, request, 'update', replace);
    await prepareIdentityValues(this.entity, this.runtime.model.auth, values);
    const ownEmail = this.authority.ownEmailUnchanged(this.entity, request, id, values);
    if (ownEmail) conditions.push(ownEmail);
    const mode = replace ? this.keptOnReplace(admission) : false;
    const check = admission?.check ?? null;
    const writer = this.runtime.writerFor(request, this.answerCells(request));
    let record: Record<string, unknown> | null;
    if (this.authority.tracks(this.entity)) {
      // Whoever held the old roles, organization, password or e-mail is logged out, in the write's own
      // transaction: the change and the revocation commit together, or neither does.
      const revoked: string[] = [];
      const change = await this.checked(
        'update',
        writer.updateTracked(
          this.plan,
          id,
          values,
          conditions,
          mode,
          (changes, executor) => this.revokeSessions(this.authority.afterUpdate(this.entity, changes[0] ?? null, values), executor, revoked),
          check,
        ),
      );
      this.endRevokedStreams(revoked);
      record = change?.record ?? null;
      if (record) await this.runtime.memberships.joined(this.entity, [record]);
    } else {
      record = await this.checked('update', writer.update(this.plan, id, values, conditions, mode, check));
    }
    if (!record) {
      if (ownEmail && (await this.exists(id, request, 'update', false))) throw this.authority.ownEmailRefused();
      // The rules reach the row, but not with these fields: the roles that grant them do not reach it.
      if (admission?.rows && (await this.exists(id, request, 'update', false))) throw new WriteNotPermittedException(admission.refusal);
      throw await this.missing(id, request, 'update');
    }
    const answer = readableRecord(record);
    this.preconditions.sendTag(request, answer);
    return answer as Partial<T>;
  }

  /** Accounts an administrator created may join their organization once; memberships use that up. */
  private async consentAfterCreate(rows: readonly Record<string, unknown>[], request: CrudRequest): Promise<void> {
    await this.runtime.memberships.accountsCreated(this.entity, rows, request);
    await this.runtime.memberships.joined(this.entity, rows);
  }

  /** Revokes in the write's transaction; `revoked` collects the users, whose change streams `endRevokedStreams()` checks after the commit. */
  private async revokeSessions(userIds: readonly string[], executor: SqlExecutor, revoked: string[]): Promise<void> {
    for (const userId of userIds) await this.runtime.identity.revokeUserSessions(userId, null, executor);
    revoked.push(...userIds);
  }

  /** After the commit: the change streams of users whose sessions were revoked check their credential now, not at their next heartbeat. */
  private endRevokedStreams(revoked: readonly string[]): void {
    this.runtime.changes?.recheckUsers(revoked);
  }

  /**
   * Columns a replace keeps when the body omits them: password hashes, identity authority fields, and the
   * fields the caller's roles do not let it write (`permissions`), which a reset would write.
   */
  private keptOnReplace(admission: WriteAdmission | null): Replace {
    const kept = this.entity.columns.filter((column) => column.field?.isPassword).map((column) => column.name);
    const granted = admission?.granted ?? null;
    const forced = admission?.set ?? {};
    const notGranted =
      granted === null
        ? []
        : this.entity.columns.filter((column) => !granted.has(column.name) && !(column.name in forced)).map((column) => column.name);
    return new Set([...kept, ...this.identity.authorityColumns(this.entity).map((column) => column.name), ...notGranted]);
  }

  /** A write whose row fails the `check` of the caller's roles (`permissions`): 403, and the statement wrote nothing. */
  private async checked<R>(operation: 'create' | 'update' | 'create or update', write: Promise<R>): Promise<R> {
    try {
      return await write;
    } catch (error) {
      if (!isWriteCheckFailure(error)) throw error;
      throw new WriteNotPermittedException(
        `${operation} on ${this.entity.name}: the record would not meet the check of your roles; nothing was written`,
      );
    }
  }

  /**
   * An upsert's row holds one value per field, whether it inserts or updates: an update `set` is refused
   * unless the create rules force the same values.
   */
  private assertSameSet(created: WriteAdmission | null, updated: WriteAdmission | null): void {
    const key = (admission: WriteAdmission | null) =>
      JSON.stringify(Object.entries(admission?.set ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)));
    if (Object.keys(updated?.set ?? {}).length === 0 || key(created) === key(updated)) return;
    throw new WriteNotPermittedException(
      `onConflict: the create and update permissions of your roles set different values on ${this.entity.name}; create and update separately`,
    );
  }

  /**
   * The hook's values, then scope (injected or checked, after the hook so it cannot be undone),
   * then identity data (password length and hash, normalized login e-mail).
   */
  private async createValues(
    body: object,
    request: CrudRequest,
  ): Promise<{ values: Record<string, unknown>; admission: WriteAdmission | null }> {
    assertPermitted(this.entity, request, 'create', this.runtime.model);
    this.identity.assertOperation(this.entity, request, 'create');
    const admission = this.writes.admit(this.entity, request, 'create', WritePermissions.writtenFields(this.entity, body));
    const values = await this.prepareCreate(body, request);
    // `set` wins over the body and the hook: its values are forced.
    if (admission?.set) Object.assign(values, admission.set);
    this.identity.checkWrite(this.entity, body, values, request, 'create');
    await this.runtime.memberships.check(this.entity, values, request);
    await this.scope.prepareWrite(this.entity, values, request, 'create', true);
    await prepareIdentityValues(this.entity, this.runtime.model.auth, values);
    return { values, admission };
  }

  /**
   * `If-Match` on a write of several records: 400 rather than a write that ignores the condition (a
   * version belongs to one record).
   */
  private refuseIfMatch(request: CrudRequest, what: string, instead: string): void {
    const ifMatch = request.preconditions?.ifMatch;
    if (ifMatch === undefined || ifMatch === null) return;
    throw new BadRequestException(`If-Match: ${what}, which have no single version; send If-Match with ${instead}`);
  }

  /** The rows a by-filter write changes: those a list with the same filters returns (live rows only), under the operation's scope. */
  private filterMatch(request: CrudRequest, operation: 'update' | 'delete'): FilterMatch {
    if (this.identity.kindOf(this.entity) !== null) {
      throw new BadRequestException(`${this.entity.name} holds identities of "auth": write its records one by one`);
    }
    this.refuseIfMatch(
      request,
      `a by-filter write changes every matching ${this.entity.name}`,
      `${operation === 'update' ? 'PATCH' : 'DELETE'} /${this.entity.route}/:id`,
    );
    const query = this.validate({ ...request.query, includeDeleted: false }, request);
    assertFiltered(query, this.entity);
    return { query, conditions: this.allConditions(request, operation), related: this.related(request, 'find'), cells: this.cells(request) };
  }

  private async writeMatching(
    match: FilterMatch,
    change: FilterChange,
    action: 'updated' | 'deleted',
    request: CrudRequest,
  ): Promise<FilterWriteResponse<Partial<T>>> {
    const limit = this.runtime.model.api.bulkWriteLimit;
    const result = await this.runtime.bulkWriterFor(request, this.answerCells(request)).writeMatching(this.plan, match, change, limit, action);
    if (result.matched > limit) throw tooManyRows(this.entity, limit);
    const affected = result.changes.length;
    return request.query.returnRows ? { affected, data: result.changes.map((written) => readableRecord(written.record) as Partial<T>) } : { affected };
  }

  /**
   * 403 when no role of the caller is granted the operation (`permissions`), then the tenant scope of the
   * root rows (403 when the context lacks it), the identity rules, and the `conditions()` and `rawSqlConditions()` hooks.
   */
  private allConditions(request: CrudRequest, operation: CrudOperation): RootCondition[] {
    assertPermitted(this.entity, request, operation, this.runtime.model);
    return [
      ...this.permissions.rootConditions(this.entity, request, PERMISSION_OF[operation]),
      ...this.scope.rootConditions(this.entity, request, operation),
      ...this.identity.rootConditions(this.entity, request, operation),
      ...fieldRootConditions(this.conditions(request, operation), this.entity, this.runtime.entities),
      ...rawRootConditions(this.rawSqlConditions(request, operation)),
    ];
  }

  /**
   * The tenant scope, the identity rules and the readable rows (`permissions`) of every other entity a read
   * reaches through joins and relation filters.
   */
  private related(request: CrudRequest, operation: CrudOperation): RelatedCondition {
    const scoped = this.scope.related(request, operation);
    return (target, sql) => {
      const readable = this.permissions.readableSql(target.plan.model, request);
      const conditions = [scoped(target, sql), this.identity.related(target, request, sql), readable ? readable(target, sql) : null].filter(
        (condition): condition is string => condition !== null,
      );
      return conditions.length === 0 ? null : conditions.join(' AND ');
    };
  }

  /** The cells of rows the caller may read (`read.fields`), compiled once per request. */
  private cells(request: CrudRequest): CellAccess {
    return this.readableCells(request).access();
  }

  /**
   * The cells of a written row the caller may read in the write's answer: those of `cells()` on a row its
   * `read` rules reach; of a row they do not reach (a task created for someone else), only the primary key.
   */
  private answerCells(request: CrudRequest): CellAccess {
    const cells = this.cells(request);
    const readable = this.permissions.readableSql(this.entity, request);
    if (readable === null) return cells;
    const primaryKey = this.plan.primaryKey.name;
    return (target, field, sql) => {
      const cell = cells(target, field, sql);
      if (target.plan.model.name !== this.entity.name || field === primaryKey || cell === NEVER) return cell;
      const row = `(${readable(target, sql)})`;
      return cell === null ? row : `(${row} AND ${cell})`;
    };
  }

  private readableCells(request: CrudRequest): ReadableCells {
    let cells = this.cellsByRequest.get(request);
    if (cells === undefined) {
      cells = new ReadableCells(this.permissions, this.runtime.entities, request);
      this.cellsByRequest.set(request, cells);
    }
    return cells;
  }

  private async page(query: ValidatedQuery, request: CrudRequest): Promise<Page<Partial<T>>> {
    const { data, total, totalCapped, after } = await this.runtime.reader.list(
      query,
      this.allConditions(request, 'find'),
      this.related(request, 'find'),
      this.cells(request),
    );
    const next = nextCursor(query, request.query, after, this.runtime.cursors, this.cursorBinding(request));
    this.setListHeaders(request, total, totalCapped, next);
    return {
      data: data as Partial<T>[],
      count: data.length,
      total,
      ...(totalCapped ? { totalCapped: true as const } : {}),
      // A cursor page has no number: it starts after a row, not at an offset.
      page: query.after ? null : query.page,
      pageCount: total === null ? null : Math.ceil(total / query.limit),
      nextCursor: next,
    };
  }

  /**
   * `X-Total-Count` unless the count was skipped (`count=none`), with `X-Total-Count-Capped: true` when it
   * is a capped count; `X-Next-Cursor` when more rows follow.
   */
  private setListHeaders(request: CrudRequest, total: number | null, capped: boolean, next: string | null): void {
    if (total !== null) request.setHeader?.(TOTAL_COUNT_HEADER, String(total));
    if (total !== null && capped) request.setHeader?.(TOTAL_COUNT_CAPPED_HEADER, 'true');
    if (next !== null) request.setHeader?.(NEXT_CURSOR_HEADER, next);
  }

  /** A cursor opens only on lists of this entity for the caller's organization. */
  private cursorBinding(request: CrudRequest | null): string {
    const field = this.runtime.model.auth?.organizationField ?? 'organizationId';
    return cursorBinding(this.entity.name, contextValue(request?.auth ?? null, field));
  }

  private validate(query: ParsedQuery, request: CrudRequest | null, alwaysPaginate = false): ValidatedQuery {
    const { pagination } = this.runtime.model.api;
    const validated = validateQuery(
      query,
      this.entity,
      this.runtime.entities,
      alwaysPaginate ? { ...pagination, alwaysPaginate } : pagination,
    );
    if (request !== null) {
      assertRelationsReadable(validated, request, this.runtime.model, this.runtime.entities);
      this.readableCells(request).assertNamedFieldsReadable(query, this.entity);
    }
    return continueAfterCursor(validated, query, this.runtime.cursors, this.cursorBinding(request));
  }

  private idCondition(id: Id): RootCondition {
    return (root, sql) => `${root.alias}.${root.plan.primaryKeyColumn} = ${sql.param(id)}`;
  }

  private assertPossibleId(id: Id): void {
    if (typeof id === 'number' && id > INT4_MAX) throw this.notFound(id);
  }

  /**
   * The error for a by-id miss: 403 when a live row with this id exists outside the caller's
   * scope, 404 when there is no such row (or it is only hidden by `conditions()`), 412 when the
   * row is there, in scope, and only the `If-Match` of a write did not match. Scope is decided
   * first, so a tag sent for another tenant's row never tells whether it matched.
   */
  private async missing(id: Id, request: CrudRequest, operation: CrudOperation): Promise<Error> {
    if (await this.scope.outsideScope(this.entity, id, request, operation)) {
      return new ScopeViolationException(`${this.entity.name} ${id} is outside your scope`);
    }
    if (await this.readableButNotPermitted(id, request, operation)) {
      return new ForbiddenException(`${PERMISSION_OF[operation]} on ${this.entity.name} ${id} is not permitted for your roles`);
    }
    if (operation !== 'get' && this.preconditions.versioned(request) && (await this.exists(id, request, operation, false))) {
      return this.preconditions.failed(`${this.entity.name} ${id}`);
    }
    // An identity row the caller sees but may not change (another user's record, an account shared with another organization).
    if (operation !== 'get' && this.identity.kindOf(this.entity) !== null && (await this.exists(id, request, 'get', false))) {
      return new ForbiddenException(`You cannot ${operation === 'delete' ? 'delete' : 'change'} ${this.entity.name} ${id}${this.sharedAccountHint()}`);
    }
    return this.notFound(id);
  }

  /** A row the caller may read whose `update` or `delete` rules (`permissions`) leave it out: 403, where an unreadable row is 404. */
  private async readableButNotPermitted(id: Id, request: CrudRequest, operation: CrudOperation): Promise<boolean> {
    if (operation !== 'update' && operation !== 'delete') return false;
    if (this.permissions.rowWhere(this.entity, request, operation) === null) return false;
    // A caller granted no `read` reads no row: every row is a 404 to it, never a 403 about reading.
    if (this.permissions.callerRules(this.entity, request, 'read')?.length === 0) return false;
    return (await this.exists(id, request, 'get', false)) && !(await this.exists(id, request, operation, false));
  }

  /** Whether the caller may reach the row with this id: live, or with `deleted` soft-deleted. */
  private async exists(id: Id, request: CrudRequest, operation: CrudOperation, deleted: boolean): Promise<boolean> {
    const conditions = [this.idCondition(id), ...this.allConditions(request, operation)];
    // Without soft delete no row is ever a deleted one.
    if (deleted) conditions.push((root) => rowStateSql(root, 'deleted') ?? 'FALSE');
    return this.runtime.reader.exists({ ...this.emptyQuery(), includeDeleted: deleted }, conditions);
  }

  private sharedAccountHint(): string {
    return this.identity.kindOf(this.entity) === 'user' && this.identity.membershipLink()
      ? ': an administrator governs only accounts whose every membership is in their organization; change or delete its membership instead'
      : '';
  }

  protected notFound(id: Id): NotFoundException {
    return new NotFoundException(`${this.entity.name} ${id} not found`);
  }

  /** A query with no filters, for existence checks. */
  private emptyQuery(): ValidatedQuery {
    return this.validate(EMPTY_QUERY, null);
  }
}
