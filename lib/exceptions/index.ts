export * from './platform.exceptions';
export * from './scope.exceptions';
export * from './cross-site.exception';
export * from './precondition.exceptions';
