/** @deprecated Import `svcSchema` from ./svc.schema: `SvcModule.forRoot({ schema: svcSchema })`. */
export { svcSchema as svcModel } from './svc.schema';
