// Module
export { SvcModule } from './svc.module';
export { SvcRuntime } from './crud/svc-runtime';
export { configureSvcApp, type ConfigureAppOptions } from './configure-app';
export * from './http';
export type { SvcModuleOptions } from './interfaces/svc-module-options.interface';
export { CRUD_OPERATION_KEY, IS_PUBLIC_KEY, SKIP_SCOPE_KEY, SVC_MODEL } from './svc.constants';

// CRUD
export { CrudService } from './crud/crud.service';
export { createCrudRequest, type CreateCrudRequestOptions } from './crud/create-crud-request';
export type { RootCondition } from './sql/conditions';
export type { AliasedEntity, SqlContext } from './sql/sql-context';
export type { AuthContext } from './interfaces/auth-context.interface';
export type { CrudRequest } from './interfaces/crud-request.interface';
export type { Page } from './interfaces/page.interface';
export { ParsedRequest } from './decorators/parsed-request.decorator';
export { Public } from './decorators/public.decorator';
export { SkipScopeCheck } from './decorators/skip-scope-check.decorator';
export { ParseIntIdPipe } from './pipes/parse-int-id.pipe';
export { ParseUuidIdPipe } from './pipes/parse-uuid-id.pipe';

// Validation and errors
export { SvcValidationPipe } from './validation/svc-validation.pipe';
export { IsDecimalValue, fitsDecimal, type DecimalOptions } from './validation/is-decimal-value.decorator';
export { flattenValidationErrors, type FieldError } from './validation/validation-errors';
export { SvcExceptionFilter } from './filters/svc-exception.filter';
export { errorBody, type ErrorBody } from './exceptions/error-body';

// OpenAPI
export {
  ApiBulkBody,
  ApiErrorResponses,
  ApiListQuery,
  ApiPaginatedResponse,
  ApiSelectionQuery,
} from './swagger/api-crud.decorators';
export { ErrorEnvelopeDto, FieldErrorDto } from './swagger/error-envelope.dto';

// Query pipeline
export * from './query/query.types';
export { QueryError } from './query/query.error';
export { parseQuery } from './query/parse-query';
export { validateQuery } from './query/validate-query';

// Database and health
export * from './database';
export { HealthModule, HealthController, DatabaseHealthIndicator } from './health';

// Schema model
export * from './schema';

// Authentication, tenant scope and platform errors
export * from './auth';
export * from './scope';
export * from './exceptions';
export { Auth } from './decorators/auth.decorator';
export { CrudEntity, CRUD_ENTITY_KEY } from './decorators/crud-entity.decorator';
export { CrudOperation } from './decorators/crud-operation.decorator';
export { CrudRoutes, type CrudRouteSetting } from './decorators/crud-routes.decorator';
export { CRUD_ROUTES, type CrudRouteKey, type CrudRouteSpec } from './schema/crud-routes';
export type { SvcSchemaSource } from './schema/resolve-schema';
export type { SvcrcV2, SvcrcV2Entity, SvcrcV2Field, SvcrcV2Relationship } from './schema/svcrc-v2.types';
export type { RelatedCondition } from './sql/conditions';

// Domain events, rate limiting, logging and production settings
export * from './events';
export type { WriteChange } from './sql/write.executor';
export * from './throttling';
export * from './logging';
export * from './production';
