/**
 * `@svc/nest/testing`: what tests of an app need, and an app in production never loads. The harness
 * of the generated smoke tests, and the parts of the runtime as injection tokens for
 * `Test.createTestingModule(...).overrideProvider(<part>)`. Like `lib/index.ts`, every name is
 * exported one by one; `test/package/testing-entry.spec.ts` lists them.
 */

// The smoke tests' harness

/** Starts the app under test on an in-memory PGlite database, once per run, and gives clients of it. */
export { smokeApp } from './smoke-app';
/** Options of `smokeApp()`: the schema, the modules under test, headers, the HTTP adapter. */
export type { SmokeApp, SmokeAppOptions } from './smoke-app';
/** A client of the app under test that checks each answer and sends tokens the app itself signed. */
export { SmokeClient } from './smoke-client';
/** A row and an answer, as `SmokeClient` returns them, and what signs its tokens. */
export type { Row, SmokeResponse, SmokeTokenSigner } from './smoke-client';
/** An open change feed of the app under test (`SmokeClient.followChanges()`), and one of its events. */
export { SmokeChangeFeed } from './smoke-change-feed';
export type { SmokeChange } from './smoke-change-feed';

// Parts of the runtime, as Nest providers: `overrideProvider(<part>)` replaces one everywhere
// (`docs/engineering/architecture.md`). Their methods are not a stable API: replace a part in tests, extend services instead.

/** Runs every SQL statement of the runtime (prepared statements, read replicas, transactions). */
export { SqlExecutor } from '../sql/sql-executor';
/** The entity plans (tables, columns, relations) the runtime builds its SQL from. */
export { EntityPlans } from '../sql/entity-plan';
/** Runs the list and get-by-id reads. */
export { ReadExecutor } from '../sql/read.executor';
/** Runs the inserts, updates, deletes and recovers. */
export { WriteExecutor } from '../sql/write.executor';
/** Checks and applies the tenant scope of every statement. */
export { ScopeEnforcer } from '../scope/scope-enforcer';
/** Publishes the domain events of committed writes through `@nestjs/event-emitter`. */
export { DomainEventPublisher } from '../events/domain-event-publisher';
