/**
 * The second half of the checks of `permissions` (the first, in lib/schema, checks shapes, field
 * names and placeholders): each rule's conditions through the validator of `s`, so an unknown
 * operator or a value that does not fit its field is refused when the app starts, and by
 * `svc schema validate`, naming the JSON path, never when a request first meets it.
 */
import { QueryError } from '../query/query.error';
import type { ColumnModel, EntityModel, PermissionCondition, ServiceModel } from '../schema/model';
import type { SvcrcProblem } from '../schema/svcrc.errors';
import { compileCondition } from './permission-rules';

/** A value of each type, standing for a caller's `$auth.*` value while a condition is checked. */
const SAMPLE: Readonly<Record<string, unknown>> = {
  text: 'x',
  integer: 1,
  boolean: true,
  timestamptz: '2020-01-01T00:00:00Z',
  decimal: '1',
  uuid: '00000000-0000-4000-8000-000000000000',
  json: 'x',
};

export function checkPermissionRules(model: ServiceModel): SvcrcProblem[] {
  const entities = new Map(model.entities.map((entity) => [entity.name, entity]));
  const problems: SvcrcProblem[] = [];
  model.entities.forEach((entity, index) => {
    for (const [role, rules] of Object.entries(entity.permissions ?? {})) {
      for (const [operation, rule] of Object.entries(rules)) {
        const path = `entities[${index}].permissions${segment(role)}.${operation}`;
        for (const key of ['where', 'check'] as const) {
          const condition = rule?.[key];
          if (!condition) continue;
          try {
            compileCondition(withSamples(condition, entity), entity, entities, () => undefined);
          } catch (error) {
            if (!(error instanceof QueryError)) throw error;
            problems.push({ path: `${path}.${key}`, message: error.detail });
          }
        }
      }
    }
  });
  return problems;
}

function segment(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** The condition with each `$auth.*` value replaced by a value of the type of the field it is compared with. */
function withSamples(condition: PermissionCondition, entity: EntityModel): PermissionCondition {
  const walk = (value: unknown, column: ColumnModel | undefined): unknown => {
    if (typeof value === 'string' && value.startsWith('$auth.')) return sampleFor(column);
    if (Array.isArray(value)) return value.map((item) => walk(item, column));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, walk(item, key.startsWith('$') ? column : entity.columns.find((c) => c.name === key))]),
      );
    }
    return value;
  };
  return walk(condition, undefined) as PermissionCondition;
}

function sampleFor(column: ColumnModel | undefined): unknown {
  if (column === undefined) return 'x';
  if (column.type === 'enum') return column.values?.[0] ?? 'x';
  return SAMPLE[column.type] ?? 'x';
}
