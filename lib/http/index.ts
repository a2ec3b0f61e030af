export { svcFastifyOptions, type SvcFastifyOptions } from './fastify-options';
