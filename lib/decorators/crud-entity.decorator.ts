import { SetMetadata } from '@nestjs/common';

/** Metadata key set by `@CrudEntity()`. */
export const CRUD_ENTITY_KEY = 'svc:entity';

/**
 * Names the `.svcrc` entity a controller serves, so `ScopeGuard` can refuse a request that
 * has no scope context with 403 before the handler runs. Optional: `CrudService` enforces
 * scope either way.
 */
export const CrudEntity = (entityName: string) => SetMetadata(CRUD_ENTITY_KEY, entityName);
