import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EntityPlans } from './crud/entity-plan';
import { ReadExecutor } from './crud/read.executor';
import { WriteExecutor } from './crud/write.executor';
import type { EntityModel, ServiceModel } from './schema/model';
import { SVC_MODEL } from './svc.constants';

/**
 * The service model and the shared query machinery, built once per application.
 * Generated services reach their entity through it.
 */
@Injectable()
export class SvcRuntime {
  readonly entities: ReadonlyMap<string, EntityModel>;
  readonly plans: EntityPlans;
  readonly reader: ReadExecutor;
  readonly writer: WriteExecutor;

  constructor(
    @Inject(SVC_MODEL) readonly model: ServiceModel,
    readonly dataSource: DataSource,
  ) {
    this.entities = new Map(model.entities.map((entity) => [entity.name, entity]));
    this.plans = new EntityPlans(dataSource, this.entities);
    this.reader = new ReadExecutor(dataSource, this.plans);
    this.writer = new WriteExecutor(dataSource, this.plans);
  }

  entity(name: string): EntityModel {
    const entity = this.entities.get(name);
    if (!entity) throw new Error(`Entity "${name}" is not in the service model: regenerate from .svcrc.`);
    return entity;
  }
}
