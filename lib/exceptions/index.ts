export * from './platform.exceptions';
export * from './scope.exceptions';
