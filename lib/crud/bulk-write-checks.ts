/** Checks of the upsert and by-filter write requests, before any SQL runs: each a 400 naming what is wrong. */
import { BadRequestException, ConflictException, HttpStatus, PayloadTooLargeException } from '@nestjs/common';
import type { ValidatedQuery } from '../query/query.types';
import type { ColumnModel, EntityModel } from '../schema/model';
import { didYouMean } from '../schema/suggest';

/** Result of a by-filter write: how many rows changed, and the rows themselves with `return=rows`. */
export interface FilterWriteResponse<T> {
  readonly affected: number;
  readonly data?: T[];
}

/**
 * Types whose values come back from the database exactly as sent, so that each written row is
 * matched to its record by value (a decimal `12.5` would come back as `"12.50"`).
 */
const CONFLICT_TYPES: ReadonlySet<string> = new Set(['text', 'integer', 'enum']);

/** The column `onConflict` names: a `unique` field of the entity (not the primary key, which a body never gives). */
export function conflictColumn(entity: EntityModel, field: string): ColumnModel {
  const column = entity.columns.find((candidate) => candidate.name === field && !candidate.hidden);
  if (!column) {
    const known = entity.columns.filter((candidate) => candidate.kind === 'field' && candidate.unique && !candidate.hidden).map((c) => c.name);
    throw new BadRequestException(`onConflict: ${entity.name} has no field "${field}"${didYouMean(field, known)}`);
  }
  if (column.kind !== 'field' || !column.unique) {
    throw new BadRequestException(`onConflict: "${field}" is not a unique field of ${entity.name}; name a field declared with "unique": true`);
  }
  if (!CONFLICT_TYPES.has(column.type)) {
    throw new BadRequestException(`onConflict: "${field}" is a ${column.type} field; upsert by a text, integer or enum field`);
  }
  return column;
}

/** Every row gives the conflict field, each value once: a row cannot be inserted and updated by the same request. */
export function assertConflictValues(column: ColumnModel, rows: readonly Record<string, unknown>[]): void {
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const value = row[column.name];
    if (value === undefined || value === null) {
      throw new BadRequestException(`bulk[${index}]: onConflict needs "${column.name}" in every record`);
    }
    const key = JSON.stringify(value);
    if (seen.has(key)) throw new BadRequestException(`bulk[${index}]: "${column.name}" ${key} is given more than once`);
    seen.add(key);
  });
}

/**
 * Asserts that every row was written. A null is a conflicting record the caller may not update
 * (another tenant's, one the `conditions()` hook hides, or a soft-deleted one): 409, and the
 * transaction rolls back so nothing is written.
 */
export function assertUpserted<T>(entity: EntityModel, column: ColumnModel, rows: readonly Record<string, unknown>[], result: readonly (T | null)[]): asserts result is T[] {
  const refused = result.flatMap((row, index) => (row === null ? [JSON.stringify(rows[index][column.name])] : []));
  if (refused.length === 0) return;
  throw new ConflictException({
    statusCode: HttpStatus.CONFLICT,
    message: `onConflict: ${entity.name} with "${column.name}" ${refused.join(', ')} exists and you may not update it (outside your scope, or deleted); nothing was written`,
    error: 'Conflict',
  });
}

/** A by-filter write must say which rows: at least one `filter`, `or` or `s` condition. */
export function assertFiltered(query: ValidatedQuery, entity: EntityModel): void {
  if (query.where === null) {
    throw new BadRequestException(`A write to every matching ${entity.name} needs at least one filter, or or s condition`);
  }
}

/** Over `api.bulkWriteLimit` matching rows: 413, nothing changed. */
export function tooManyRows(entity: EntityModel, limit: number): PayloadTooLargeException {
  return new PayloadTooLargeException(
    `More than ${limit} ${entity.name} records match (api.bulkWriteLimit); nothing was changed: narrow the filter`,
  );
}

