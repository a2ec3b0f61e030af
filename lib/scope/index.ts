export * from './scope-rules';
export { ScopeEnforcer, missingContext } from './scope-enforcer';
export { ScopeGuard } from './scope.guard';
