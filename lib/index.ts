/**
 * The public API of `@svc/nest`: every name is exported one by one, and each is a promise kept
 * across versions. What generated code, `src/extensions/` and an application's own modules need,
 * and nothing else: the normalized model, the SQL layer and the helpers behind the runtime stay
 * internal. What only tests need (the smoke-test harness, the runtime's parts as override tokens) is in
 * `@svc/nest/testing` (`lib/testing/index.ts`). `test/package/public-api.spec.ts` lists these names, so a
 * change shows in review, and keeps them at most 70: a name that joins makes room first.
 */

// Module and application setup

/** The root module: `SvcModule.forRoot({ schema: svcSchema })`, the database, auth and the runtime of the generated code. */
export { SvcModule } from './svc.module';
/** Options of `SvcModule.forRoot()`: the schema, the environment to read, SQL logging, migrations. */
export type { SvcModuleOptions } from './interfaces/svc-module-options.interface';
/** What `schema` accepts: the `svcSchema` of `src/autogen/svc.schema.ts`, or the path of a `.svcrc` file. */
export type { SvcSchemaSource } from './schema/resolve-schema';
/** The runtime the generated services are built on: what a service's constructor passes to `CrudService`, and nothing more. */
export { SvcRuntime } from './crud/svc-runtime';
/** Settings of the HTTP application: validation, the error envelope, CORS, body limit, `/_docs`, shutdown. Call it in `main.ts`. */
export { configureSvcApp } from './configure-app';
/** Options of `configureSvcApp()`. */
export type { ConfigureAppOptions } from './configure-app';
/** Options of `new FastifyAdapter()` that Fastify reads only when it is created (trust proxy, trailing slashes). */
export { svcFastifyOptions } from './http/fastify-options';
/** What `svcFastifyOptions()` returns. */
export type { SvcFastifyOptions } from './http/fastify-options';

// The .svcrc, as generated code embeds it

/** A version 2 `.svcrc`, as written: the type of `svcSchema` in `src/autogen/svc.schema.ts`. */
export type { SvcrcV2 } from './schema/svcrc-v2.types';
/** A generated route, as named in `.svcrc` `routes` and in `@CrudRoutes()`: `find`, `get`, `create`, `createMany`, `update`, `replace`, `delete`, `recover`. */
export type { CrudRouteKey } from './schema/crud-routes';

// CRUD services and controllers

/** The base of every generated service; override its hooks (`prepareCreate`, `prepareUpdate`, `conditions`, `rawSqlConditions`) in `src/extensions/`. */
export { CrudService } from './crud/crud.service';
/** A `CrudRequest` for calling a service outside an HTTP request (jobs, event handlers, seeds). */
export { createCrudRequest } from './crud/create-crud-request';
/** Options of `createCrudRequest()`. */
export type { CreateCrudRequestOptions } from './crud/create-crud-request';
/** What a generated handler passes to its service: the parsed query and the caller. */
export type { CrudRequest } from './interfaces/crud-request.interface';
/** `If-Match` and `If-None-Match` of a request by id, as `CrudRequest.preconditions` carries them. */
export type { RequestPreconditions } from './interfaces/preconditions.interface';
/** A page of a list: `data`, `count`, `total`, `page`, `pageCount`. */
export type { Page } from './interfaces/page.interface';
/** The authenticated caller: `userId`, `organizationId`, `roles` and the token's other claims. */
export type { AuthContext } from './interfaces/auth-context.interface';
/** A condition the `conditions()` hook of a service adds to an operation: a field, an operator of `s` and a value, or `and`/`or`/`not` of them. */
export type { FieldCondition } from './query/field-conditions';
/** An operator of `filter`, `or` and `s` (`$eq`, `$in`, `$between`...), as a `FieldCondition` names it. */
export type { FilterOperator } from './query/operators';
/** A condition written in SQL by the `rawSqlConditions()` hook, which bypasses the checks of `conditions()`. */
export type { RawSqlCondition } from './sql/conditions';
/** Names the entity a controller serves (generated controllers carry it); custom routes of that controller are scoped like generated ones. */
export { CrudEntity } from './decorators/crud-entity.decorator';
/** Declares the operation (`find`, `get`, `create`, `update`, `delete`) a handler performs, which the scope guard checks. */
export { CrudOperation, type CrudOperationOptions } from './decorators/crud-operation.decorator';
/** Turns off generated routes of a controller, or puts decorators (guards, interceptors) on some of them. */
export { CrudRoutes } from './decorators/crud-routes.decorator';
/** One setting of `@CrudRoutes()`: `false` (the route answers 404 and leaves `/_docs`) or decorators to apply. */
export type { CrudRouteSetting } from './decorators/crud-routes.decorator';
/** The `CrudRequest` of the current request, as a handler parameter. */
export { ParsedRequest } from './decorators/parsed-request.decorator';
/** The caller (`AuthContext`), or one of its properties, as a handler parameter. */
export { Auth } from './decorators/auth.decorator';
/** Marks a route or controller as open to unauthenticated callers. */
export { Public } from './decorators/public.decorator';
/** Skips the tenant-scope check of the scope guard on a route or controller. */
export { SkipScopeCheck } from './decorators/skip-scope-check.decorator';
/** Parses an integer `:id` (400 in the error envelope when it is not one). */
export { ParseIntIdPipe } from './pipes/parse-int-id.pipe';
/** Parses a UUID `:id` (400 in the error envelope when it is not one). */
export { ParseUuidIdPipe } from './pipes/parse-uuid-id.pipe';
/** Metadata key of `@Public()`, for guards of your own. */
export { IS_PUBLIC_KEY } from './svc.constants';

// Authentication and tenant scope

/** The auth and scope guards as providers; `forRoot({ global: true })` puts both on every route. */
export { SvcGuardsModule } from './auth/guards/guards.module';
/** Options of `SvcGuardsModule.forRoot()`. */
export type { SvcGuardsModuleOptions } from './auth/guards/guards.module';
/** Authenticates the caller from a bearer token, an API key or the session cookie. */
export { SvcAuthGuard } from './auth/guards/auth.guard';
/** Checks the tenant scope of the declared operation before the handler runs. */
export { ScopeGuard } from './auth/guards/scope.guard';
/** The caller's `permissions` as a CASL ability (`abilityFor(auth).can('update', subject('Task', task))`), the rules the generated routes enforce. */
export { SvcPermissions } from './scope/svc-permissions';
/** Issues, lists and revokes the API keys of an organization. */
export { SvcApiKeyService } from './auth/api-keys/api-key.service';
/** An API key as listed (never its secret). */
export type { ApiKeyInfo } from './auth/api-keys/api-keys';
/** What `SvcApiKeyService` needs to issue a key. */
export type { CreateApiKeyInput } from './auth/api-keys/api-keys';
/** A newly issued API key, with its secret (shown once). */
export type { CreatedApiKey } from './auth/api-keys/api-keys';
/** Sets the session cookie (`svc_session`) on an Express response or a Fastify reply, in a route of your own. */
export { setSessionCookie } from './auth/cookies/session-cookie';
/** Clears the session cookie, e.g. in a logout route of your own. */
export { clearSessionCookie } from './auth/cookies/session-cookie';
/** The response `setSessionCookie()` and `clearSessionCookie()` write to (Express or Fastify). */
export type { CookieResponse } from './auth/cookies/session-cookie';
/**
 * Injection token of the one throttler storage the rate limits and the login throttle count in (Redis when `REDIS_URL`
 * is set, else process memory); override it to count elsewhere.
 */
export { SVC_THROTTLER_STORAGE } from './throttling/svc-throttler-storage';
/** The contract of the throttler storage: `ThrottlerStorage` of `@nestjs/throttler` plus `decrement` and `reset`. */
export type { SvcThrottlerStorage } from './throttling/svc-throttler-storage';
/** The default throttler storage, in process memory, bounded (at most 100,000 keys, lockouts kept). */
export { InMemoryThrottlerStorage } from './throttling/in-memory-throttler.storage';

// Errors, validation and OpenAPI

/** Every error in the envelope `{ statusCode, message, error }` (+ `errors` for validation). */
export { SvcExceptionFilter } from './filters/svc-exception.filter';
/** The error envelope. */
export type { ErrorBody } from './exceptions/error-body';
/** One entry of `errors` in a validation error. */
export type { FieldError } from './validation/validation-errors';
/** The validation pipe of generated DTOs: 422 with one entry per field. */
export { SvcValidationPipe } from './validation/svc-validation.pipe';
/** Validates a decimal value against a precision and a scale. */
export { IsDecimalValue } from './validation/is-decimal-value.decorator';
/** Options of `@IsDecimalValue()`. */
export type { DecimalOptions } from './validation/is-decimal-value.decorator';
/** 403: a plan limit of the service is reached. */
export { ServiceLimitReachedException } from './exceptions/platform.exceptions';
/** 403: the team has as many members as its plan allows. */
export { TeamMemberLimitReachedException } from './exceptions/platform.exceptions';
/** 403: the feature needs another plan. */
export { EntitlementRequiredException } from './exceptions/platform.exceptions';
/** 403: the workspace does not exist or is not the caller's. */
export { WorkspaceNotFoundException } from './exceptions/platform.exceptions';
/** 429: a usage quota is exhausted. */
export { QuotaExceededException } from './exceptions/platform.exceptions';
/** Documents the error answers of a route in `/_docs`. */
export { ApiErrorResponses } from './swagger/api-crud.decorators';
/** Documents the list query parameters (`filter`, `or`, `s`, `sort`, `join`, `fields`, `limit`, `page`...) in `/_docs`. */
export { ApiChangeFeed, ApiListQuery } from './swagger/api-crud.decorators';
/** Documents the `fields` and `join` parameters of a single-row route in `/_docs`. */
export { ApiSelectionQuery } from './swagger/api-crud.decorators';
/** Documents a paginated list answer in `/_docs`. */
export { ApiPaginatedResponse } from './swagger/api-crud.decorators';
/** Documents `onConflict` of `POST /<entities>/bulk` (upsert by a unique field). */
export { ApiUpsertQuery } from './swagger/api-crud.decorators';
/** Documents the query of `PATCH` and `DELETE /<entities>?filter=...`. */
export { ApiFilterWriteQuery } from './swagger/api-crud.decorators';
/** Documents the `{ affected, data? }` answer of the by-filter writes. */
export { ApiFilterWriteResponse } from './swagger/api-crud.decorators';
/** The answer of `PATCH` and `DELETE /<entities>?filter=...`. */
export type { FilterWriteResponse } from './crud/bulk-write-checks';

// Domain events

/** What a create, update or delete publishes when `events` is on. */
export type { DomainEvent } from './events/domain-event';
/** `created`, `updated`, `deleted` or `recovered`. */
export type { DomainEventAction } from './events/domain-event';
/** The event name of an entity's action (`loanItem.created`), for `@OnEvent()`. */
export { domainEventName } from './events/domain-event';
