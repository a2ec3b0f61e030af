/**
 * Structural validation against `schemas/svcrc.schema.json` (the file editors use), with ajv's
 * errors turned into `.svcrc` problems a person can act on.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import svcrcJsonSchema from '../../schemas/svcrc.schema.json';
import { childPath } from './json-text';
import type { SvcrcProblem } from './svcrc.errors';
import { didYouMean } from './suggest';

/** `$schema` value for a `.svcrc` in a project that has `@svc/nest` installed. */
export const SVCRC_JSON_SCHEMA_PATH = './node_modules/@svc/nest/schemas/svcrc.schema.json';

/** The JSON Schema of `.svcrc` (draft-07). */
export const SVCRC_JSON_SCHEMA: object = svcrcJsonSchema;

/** Plain-language meaning of each pattern in the schema. */
const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  '^[A-Z][A-Za-z0-9]*$': 'must be PascalCase: an uppercase letter, then letters and digits (e.g. "LoanItem")',
  '^[a-z_][A-Za-z0-9_]*$':
    'must be an identifier: a lowercase letter or "_", then letters, digits and "_" (e.g. "dueAt")',
  '^[a-z][a-z0-9]{1,15}$': 'must be 2 to 16 lowercase letters and digits, starting with a letter (e.g. "svc")',
  '^[0-9]+(\\.[0-9]+)?(b|kb|mb|gb)$': 'must be a size such as "512kb" or "1mb" (units b, kb, mb, gb)',
};

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

let validator: ValidateFunction | undefined;

function getValidator(): ValidateFunction {
  validator ??= new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true }).compile(
    svcrcJsonSchema,
  );
  return validator;
}

/** `/entities/2/fields/0/type` → `entities[2].fields[0].type`. */
export function instancePathToProblemPath(instancePath: string): string {
  if (instancePath === '') return '';
  return instancePath
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<string>(
      (path, segment) => childPath(path, /^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment),
      '',
    );
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function toProblem(error: ErrorObject): SvcrcProblem {
  const path = instancePathToProblemPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const parent = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
      const known = Object.keys(parent?.properties ?? {});
      return { path: childPath(path, key), message: `unknown key ${JSON.stringify(key)}${didYouMean(key, known)}` };
    }
    case 'required':
      return { path: childPath(path, String(params.missingProperty)), message: 'is required' };
    case 'type': {
      const types = Array.isArray(params.type) ? params.type.map(String) : String(params.type).split(',');
      return {
        path,
        message: `must be ${types.map((type) => TYPE_NAMES[type] ?? type).join(' or ')} (got ${shown(error.data)})`,
      };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const hint = typeof error.data === 'string' ? didYouMean(error.data, allowed) : '';
      return {
        path,
        message: `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')} (got ${shown(error.data)})${hint}`,
      };
    }
    case 'const':
      return { path, message: `must be ${shown(params.allowedValue)} (got ${shown(error.data)})` };
    case 'pattern':
      return {
        path,
        message: `${PATTERN_MESSAGES[String(params.pattern)] ?? `must match ${String(params.pattern)}`} (got ${shown(error.data)})`,
      };
    case 'minimum':
    case 'maximum':
      return { path, message: `must be ${params.comparison} ${params.limit} (got ${shown(error.data)})` };
    case 'minItems':
      return { path, message: `must have at least ${params.limit} item${params.limit === 1 ? '' : 's'}` };
    case 'minLength':
      return { path, message: 'must not be empty' };
    case 'uniqueItems':
      return {
        // ajv's i is the earlier index, j the repeat.
        path: childPath(path, Number(params.j)),
        message: `duplicate of item ${params.i} (${shown((error.data as unknown[])[Number(params.j)])})`,
      };
    default:
      return { path, message: error.message ?? `fails ${error.keyword}` };
  }
}

/**
 * Checks `value` against the JSON Schema. When a value has the wrong type, only that is reported:
 * its other errors (enum, pattern...) would be noise.
 */
export function checkJsonSchema(value: unknown): SvcrcProblem[] {
  const validate = getValidator();
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  const wrongType = new Set(errors.filter((error) => error.keyword === 'type').map((error) => error.instancePath));
  return errors.filter((error) => error.keyword === 'type' || !wrongType.has(error.instancePath)).map(toProblem);
}
