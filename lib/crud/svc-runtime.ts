import { Inject, Injectable, Optional } from '@nestjs/common';
import { SvcIdentityService } from '../auth/identity/identity.service';
import { DomainEventPublisher } from '../events/domain-event-publisher';
import { SvcEventOutbox } from '../events/outbox/event-outbox';
import { SvcChangeFeed } from '../realtime/change-feed';
import { CursorCodec } from '../query/cursor-codec';
import type { ServiceModel } from '../schema/model';
import { ScopeEnforcer } from '../scope/scope-enforcer';
import { EntityPlans } from '../sql/entity-plan';
import { ReadExecutor } from '../sql/read.executor';
import { SqlExecutor } from '../sql/sql-executor';
import { WriteExecutor } from '../sql/write.executor';
import { SVC_MODEL } from '../svc.constants';
import { RuntimeParts } from './runtime-parts';

let partsOf: (runtime: SvcRuntime) => RuntimeParts;

/**
 * The runtime the generated services are built on, built once per application: what a service's
 * constructor hands to `CrudService`. It exposes nothing else. Its parts (`EntityPlans`,
 * `ReadExecutor`, `WriteExecutor`, `ScopeEnforcer`, `DomainEventPublisher`...) stay behind
 * `CrudService`, whose methods apply the tenant scope, the identity rules, events and `ETag`s that a
 * part used directly would skip. Each part is a Nest provider of its own, so
 * `Test.createTestingModule(...).overrideProvider(<part>)` replaces it here too.
 */
@Injectable()
export class SvcRuntime {
  readonly #parts: RuntimeParts;

  static {
    partsOf = (runtime) => runtime.#parts;
  }

  constructor(
    @Inject(SVC_MODEL) model: ServiceModel,
    plans: EntityPlans,
    reader: ReadExecutor,
    writer: WriteExecutor,
    events: DomainEventPublisher,
    scope: ScopeEnforcer,
    identity: SvcIdentityService,
    executor: SqlExecutor,
    cursors: CursorCodec,
    @Optional() eventOutbox?: SvcEventOutbox,
    @Optional() changeFeed?: SvcChangeFeed,
  ) {
    this.#parts = new RuntimeParts(model, plans, reader, writer, events, scope, identity, executor, cursors, eventOutbox, changeFeed ?? null);
  }
}

/** The parts of a runtime, for `CrudService` (the public API does not export this function). */
export function runtimeParts(runtime: SvcRuntime): RuntimeParts {
  return partsOf(runtime);
}
