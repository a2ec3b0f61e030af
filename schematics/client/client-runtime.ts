/**
 * The fixed part of the typed client (`files/svc-client.runtime.ts.template`): fetch transport,
 * `SvcError`, the typed query builder and the resource calls. Kept as a template rather than a
 * module so that the generated client stays one dependency-free file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Top-level names the runtime declares; entity types must not reuse them. */
export const CLIENT_RUNTIME_NAMES = [
  'SvcErrorEnvelope',
  'SvcError',
  'SvcPage',
  'SvcFieldSpec',
  'SvcAnyFieldSpec',
  'SvcEqualityOperator',
  'SvcNullOperator',
  'SvcOrderOperator',
  'SvcTextOperator',
  'SvcOperatorFor',
  'SvcValueFor',
  'SvcQueryMeta',
  'SvcPrimitive',
  'SvcQuery',
  'svcCondition',
  'SvcClientOptions',
  'SvcQueryArgument',
  'svcToQuery',
  'SvcTransport',
  'svcEnvelopeOf',
  'SvcResource',
  'SvcClient',
  'createSvcClient',
] as const;

/** The runtime's source text, as copied into every client. */
export function clientRuntime(): string {
  return readFileSync(join(__dirname, 'files', 'svc-client.runtime.ts.template'), 'utf8');
}
