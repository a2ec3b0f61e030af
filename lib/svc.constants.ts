/** Metadata key set by `@Public()`: no authentication and no scope check. */
export const IS_PUBLIC_KEY = 'svc:is_public';
/** Metadata key set by `@SkipScopeCheck()`: authentication still required. */
export const SKIP_SCOPE_KEY = 'svc:skip_scope';
/** Injection token of the normalized `ServiceModel`. */
export const SVC_MODEL = Symbol('svc:model');
/** Metadata key set by `@CrudOperation()`: the scope operation a route performs. */
export const CRUD_OPERATION_KEY = 'svc:operation';
/**
 * Set on a request by the auth guard: checks its credential again (a change stream does, while it stays
 * open) and answers the caller it stands for now, or null when it is no longer accepted.
 */
export const CREDENTIAL_RECHECK = Symbol('svc:credential-recheck');
