/**
 * What `SvcModule.forRoot({ schema })` accepts, turned into the normalized model at startup:
 * the raw `.svcrc` object generated apps embed (`svcSchema`), a path to a `.svcrc` file, or,
 * during the upgrade from 0.1.0, the normalized model that version wrote to `svc.model.ts`.
 */
import { CRUD_ROUTE_KEYS, type CrudRouteKey, routeAvailable } from './crud-routes';
import { loadSvcrcOrThrow } from './load-svcrc';
import type { EntityModel, ServiceModel } from './model';
import { parseSvcrcValue } from './parse-svcrc';
import { SvcrcError } from './svcrc.errors';
import type { SvcrcV2 } from './svcrc-v2.types';

/**
 * The `schema` option: a `.svcrc` object (`svcSchema`), or a path to a `.svcrc` file. A model
 * already normalized (what 0.1.0 generated as `svcModel`) is still accepted during the upgrade;
 * its shape is internal and may change in any release.
 */
export type SvcSchemaSource = SvcrcV2 | string | ServiceModel;

/** A 0.1.0 `svcModel`: entities carry `columns`, which a `.svcrc` never has. */
function isLegacyModel(value: object): value is ServiceModel {
  const entities = (value as { entities?: unknown }).entities;
  return Array.isArray(entities) && entities.length > 0 && entities.every((entity) => Array.isArray((entity as { columns?: unknown }).columns));
}

/** A 0.1.0 model had no `routes`: every route the entity could serve. */
function withRoutes(entity: EntityModel): EntityModel {
  const bulkWrites = entity.bulkWrites ?? false;
  if (Array.isArray((entity as { routes?: unknown }).routes)) return { ...entity, bulkWrites };
  const routes: CrudRouteKey[] = entity.http ? CRUD_ROUTE_KEYS.filter((key) => routeAvailable(key, { ...entity, bulkWrites })) : [];
  return { ...entity, routes, bulkWrites };
}

export function resolveSchema(schema: SvcSchemaSource): ServiceModel {
  if (typeof schema === 'string') return loadSvcrcOrThrow(schema);
  if (isLegacyModel(schema)) return { ...schema, entities: schema.entities.map(withRoutes) };
  const result = parseSvcrcValue(schema);
  if (!result.ok) throw new SvcrcError(result.problems, 'the schema given to SvcModule.forRoot()');
  return result.model;
}
