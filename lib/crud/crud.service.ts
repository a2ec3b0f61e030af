import { NotFoundException } from '@nestjs/common';
import type { ObjectLiteral, Repository } from 'typeorm';
import type { CrudRequest } from '../interfaces/crud-request.interface';
import type { Page } from '../interfaces/page.interface';
import { validateQuery } from '../query/validate-query';
import type { ParsedQuery, ValidatedQuery } from '../query/query.types';
import type { CrudOperation, EntityModel } from '../schema/model';
import type { SvcRuntime } from '../svc-runtime';
import type { EntityPlan } from './entity-plan';
import type { RootCondition } from './read.executor';

const EMPTY_QUERY: ParsedQuery = {
  fields: null,
  where: null,
  sort: [],
  join: [],
  limit: null,
  page: null,
  offset: null,
  includeDeleted: false,
};

/** Largest value of a PostgreSQL `integer` primary key; larger ids cannot exist. */
const MAX_INTEGER_ID = 2147483647;

type Id = string | number;

/**
 * The CRUD behaviour of one entity. Generated services extend it; override the
 * `protected` hooks to add business rules without touching generated code.
 */
export class CrudService<T extends ObjectLiteral> {
  protected readonly entity: EntityModel;

  constructor(
    protected readonly repository: Repository<T>,
    protected readonly runtime: SvcRuntime,
    entityName: string,
  ) {
    this.entity = runtime.entity(entityName);
  }

  /** `GET /<entities>`: one page of records matching the query. */
  async findMany(request: CrudRequest): Promise<Page<Partial<T>>> {
    const query = this.validate(request.query);
    const { data, total } = await this.runtime.reader.list(query, this.conditions(request, 'find'));
    return {
      data: data as Partial<T>[],
      count: data.length,
      total,
      page: query.page,
      pageCount: Math.ceil(total / query.limit),
    };
  }

  /** `GET /<entities>/:id`. */
  async findOne(id: Id, request: CrudRequest): Promise<Partial<T>> {
    const query = this.validate({ ...request.query, where: null, sort: [], limit: null, page: null, offset: null });
    this.assertPossibleId(id);
    const record = await this.runtime.reader.one(query, [this.idCondition(id), ...this.conditions(request, 'get')]);
    if (!record) throw await this.missing(id, request, 'get');
    return record as Partial<T>;
  }

  /** `POST /<entities>`. */
  async createOne(body: object, request: CrudRequest): Promise<Partial<T>> {
    const [created] = await this.runtime.writer.insert(this.plan, [await this.prepareCreate(body, request)]);
    return created as Partial<T>;
  }

  /** `POST /<entities>/bulk`: every record or none. */
  async createMany(bodies: readonly object[], request: CrudRequest): Promise<Partial<T>[]> {
    const rows = await Promise.all(bodies.map((body) => this.prepareCreate(body, request)));
    return (await this.runtime.writer.insert(this.plan, rows)) as Partial<T>[];
  }

  /** `PATCH /<entities>/:id`: changes the given fields only. */
  async updateOne(id: Id, body: object, request: CrudRequest): Promise<Partial<T>> {
    return this.write(id, body, request, false);
  }

  /** `PUT /<entities>/:id`: omitted fields return to their default, or null. */
  async replaceOne(id: Id, body: object, request: CrudRequest): Promise<Partial<T>> {
    return this.write(id, body, request, true);
  }

  /** `DELETE /<entities>/:id` (soft when the entity has `softDelete`). */
  async deleteOne(id: Id, request: CrudRequest): Promise<void> {
    this.assertPossibleId(id);
    const deleted = await this.runtime.writer.delete(this.plan, id, this.conditions(request, 'delete'));
    if (!deleted) throw await this.missing(id, request, 'delete');
  }

  /** `PATCH /<entities>/:id/recover`: restores a soft-deleted record. */
  async recoverOne(id: Id, request: CrudRequest): Promise<Partial<T>> {
    this.assertPossibleId(id);
    const record = await this.runtime.writer.recover(this.plan, id, this.conditions(request, 'update'));
    if (!record) throw new NotFoundException(`${this.entity.name} ${id} not found among deleted records`);
    return record as Partial<T>;
  }

  /** Values to insert for one create; override to derive fields. */
  protected async prepareCreate(body: object, _request: CrudRequest): Promise<Record<string, unknown>> {
    return { ...body };
  }

  /** Values to write for an update or replace; override to derive fields. */
  protected async prepareUpdate(body: object, _request: CrudRequest): Promise<Record<string, unknown>> {
    return { ...body };
  }

  /** Row conditions every operation adds (tenant scope). */
  protected conditions(_request: CrudRequest, _operation: CrudOperation): RootCondition[] {
    return [];
  }

  protected get plan(): EntityPlan {
    return this.runtime.plans.get(this.entity.name);
  }

  private async write(id: Id, body: object, request: CrudRequest, replace: boolean): Promise<Partial<T>> {
    this.assertPossibleId(id);
    const values = await this.prepareUpdate(body, request);
    const conditions = this.conditions(request, 'update');
    const record = await this.runtime.writer.update(this.plan, id, values, conditions, replace);
    if (!record) throw await this.missing(id, request, 'update');
    return record as Partial<T>;
  }

  private validate(query: ParsedQuery): ValidatedQuery {
    return validateQuery(query, this.entity, this.runtime.entities, this.runtime.model.api.pagination);
  }

  private idCondition(id: Id): RootCondition {
    return (root, sql) => `${root.alias}.${root.plan.primaryKeyColumn} = ${sql.param(id)}`;
  }

  private assertPossibleId(id: Id): void {
    if (typeof id === 'number' && id > MAX_INTEGER_ID) throw this.notFound(id);
  }

  /** The error for a by-id miss: 404 unless scope rules decide otherwise. */
  protected async missing(id: Id, _request: CrudRequest, _operation: CrudOperation): Promise<Error> {
    return this.notFound(id);
  }

  protected notFound(id: Id): NotFoundException {
    return new NotFoundException(`${this.entity.name} ${id} not found`);
  }

  /** A query with no filters, for existence checks. */
  protected emptyQuery(): ValidatedQuery {
    return this.validate(EMPTY_QUERY);
  }
}
