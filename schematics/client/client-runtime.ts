/**
 * The fixed part of the typed client (`files/svc-client.runtime.ts.template`): fetch transport,
 * `SvcError`, the typed query builder and the resource calls. Kept as a template rather than a
 * module so that the generated client stays one dependency-free file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPERATOR_TYPES_MARKER, operatorTypeAliases } from './operator-types';

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
  'SvcChange',
  'SvcChangesOptions',
  'SvcSubscription',
  'svcReadEvents',
  'SvcResource',
  'SvcClient',
  'createSvcClient',
] as const;

/** The runtime's source text, as copied into every client, with the operator groups written from the operator table. */
export function clientRuntime(): string {
  const template = readFileSync(join(__dirname, 'files', 'svc-client.runtime.ts.template'), 'utf8');
  if (!template.includes(OPERATOR_TYPES_MARKER)) throw new Error(`The client runtime template lacks ${OPERATOR_TYPES_MARKER}`);
  return template.replace(OPERATOR_TYPES_MARKER, operatorTypeAliases());
}
