export * from './scope-rules';
export { ScopeEnforcer, missingContext } from './scope-enforcer';
