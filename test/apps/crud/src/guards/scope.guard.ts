export { ScopeGuard, SvcAuthGuard } from '@svc/nest';
