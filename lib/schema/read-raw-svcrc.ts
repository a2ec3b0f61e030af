/**
 * Turns parsed JSON into a typed `RawSvcrc`, leniently: a value of the wrong type is dropped
 * rather than rejected, since the JSON Schema already reports it. This is what lets semantic
 * checks run on an invalid file without tripping over it.
 *
 * The reader walks `schemas/svcrc.schema.json` itself, so every key the schema declares is read,
 * with the schema's type, enum and integer range; `RawSvcrc` is generated from the same schema.
 */
import svcrcJsonSchema from '../../schemas/svcrc.schema.json';
import type { RawSvcrc } from './raw-svcrc.types';

/** The parts of a JSON Schema node the reader follows. */
interface SchemaNode {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  /** A map keyed by names the file chooses (`permissions` by role): each value read with this node. */
  readonly additionalProperties?: boolean | SchemaNode;
  readonly items?: SchemaNode;
  readonly definitions?: Readonly<Record<string, SchemaNode>>;
}

const ROOT = svcrcJsonSchema as SchemaNode;

/**
 * Keys read otherwise than their schema says, each with the reason. Paths as in problems, with `[]`
 * for any index.
 */
const READ_AS_LIST = new Set([
  // Always a list (empty when missing or not a list), so that checks iterate them without a guard.
  'relationships',
  'entities[].fields',
]);
const READ_WITHOUT_RANGE = new Set([
  // Out of range is kept: it still answers "is a precision given?"; checks compare only valid ones.
  'entities[].fields[].precision',
]);

type JsonObject = { readonly [key: string]: unknown };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolve(node: SchemaNode): SchemaNode {
  if (node.$ref === undefined) return node;
  return resolve(ROOT.definitions?.[node.$ref.split('/').pop() ?? ''] ?? {});
}

function typesOf(node: SchemaNode): readonly string[] {
  if (node.type === undefined) return [];
  return typeof node.type === 'string' ? [node.type] : node.type;
}

/** The JSON Schema type `value` has, as far as the schema's types tell them apart. */
function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function readObject(node: SchemaNode, value: JsonObject, path: string): JsonObject {
  const result: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const childPath = path === '' ? key : `${path}.${key}`;
    const read = readValue(resolve(child), value[key], childPath);
    result[key] = READ_AS_LIST.has(childPath) ? (read ?? []) : read;
  }
  const extra = node.additionalProperties;
  if (typeof extra === 'object') {
    for (const [key, entry] of Object.entries(value)) {
      if (node.properties?.[key] !== undefined) continue;
      const read = readValue(resolve(extra), entry, path === '' ? '*' : `${path}.*`);
      if (read !== undefined) result[key] = read;
    }
  }
  return result;
}

/**
 * The items of a list: objects read one by one (an item that is not an object reads as an object
 * without keys, so that indexes stay those of the file), other items kept when they have the item
 * type (and are among its enum).
 */
function readItems(node: SchemaNode, value: readonly unknown[], path: string): unknown[] {
  const item = resolve(node.items ?? {});
  if (item.properties) return value.map((entry) => readObject(item, isObject(entry) ? entry : {}, `${path}[]`));
  return value.filter((entry) => readValue(item, entry, `${path}[]`) !== undefined);
}

function readScalar(node: SchemaNode, value: unknown, path: string): unknown {
  if (node.enum !== undefined && !node.enum.includes(value)) return undefined;
  if (typeof value !== 'number' || READ_WITHOUT_RANGE.has(path)) return value;
  // An integer within the range the JSON Schema allows, so checks never see a value it rejects.
  const inRange = value >= (node.minimum ?? -Infinity) && value <= (node.maximum ?? Infinity);
  return inRange ? value : undefined;
}

function readValue(node: SchemaNode, value: unknown, path: string): unknown {
  const types = typesOf(node);
  if (types.length === 0) return value;
  if (value === undefined) return undefined;
  const type = jsonType(value);
  if (types.includes('object') && type === 'object') return readObject(node, value as JsonObject, path);
  if (types.includes('array') && type === 'array') return readItems(node, value as unknown[], path);
  if (types.includes(type) || (type === 'integer' && types.includes('number'))) return readScalar(node, value, path);
  // A list of values given in the wrong form reads as empty rather than absent, so that checks do not also complain it is missing.
  if (types.includes('array') && !resolve(node.items ?? {}).properties) return [];
  return undefined;
}

export function readRawSvcrc(value: unknown): RawSvcrc {
  return readObject(ROOT, isObject(value) ? value : {}, '') as unknown as RawSvcrc;
}
