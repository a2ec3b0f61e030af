export * from './guards.module';
export * from './scope.guard';
