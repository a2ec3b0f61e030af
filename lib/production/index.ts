export { SvcOperationsModule } from './operations.module';
export { applyOperationalSettings, trustProxySetting } from './operational-settings';
export { ProductionConfigError, assertProductionConfig, isProduction, productionConfigProblems } from './production-config';
export { SvcShutdownState, createDrainMiddleware } from './shutdown-drain';
