/**
 * Which cells of a written row the caller may read, decided in the write's own statement: its
 * RETURNING carries a flag per field that a field rule restricts (`svc:readable:<field>`). The record
 * keeps every value (domain events and session revocation need the row as stored); the answer to the
 * caller is `readableRecord()`, without the fields whose flag was false.
 */
import { type CellAccess, NEVER } from './cell-access';
import type { EntityPlan } from './entity-plan';
import { readableVersionSql } from './readable-version';
import { carryRowVersion, ROW_VERSION_ALIAS } from './row-version';
import type { AliasedEntity, SqlContext } from './sql-context';

/** Prefix of the flags' RETURNING aliases; `:` never occurs in a property name. */
const READABLE_PREFIX = 'svc:readable:';

/** Fields of a returned record the caller may not read, kept beside it so the record stays plain data. */
const unreadable = new WeakMap<object, readonly string[]>();

/**
 * `plan.returning` (or `plan.returningRecord` without `version`) for a caller: the same text when no
 * field rule restricts the entity, else the record's columns, the version over the readable cells,
 * and the flags.
 */
export function returningSql(plan: EntityPlan, sql: SqlContext, cells: CellAccess, version: boolean): string {
  const target: AliasedEntity = { alias: plan.table, plan };
  const flags: string[] = [];
  for (const column of plan.visibleColumns) {
    const readable = cells(target, column.name, sql);
    if (readable === null) continue;
    const flag = readable === NEVER ? 'FALSE' : `COALESCE(${readable}, FALSE)`;
    flags.push(`${flag} AS ${sql.escape(READABLE_PREFIX + column.name)}`);
  }
  if (flags.length === 0) return version ? plan.returning : plan.returningRecord;
  const parts = [plan.returningRecord, ...flags];
  if (version) parts.push(`${readableVersionSql(target, sql, cells)} AS ${sql.escape(ROW_VERSION_ALIAS)}`);
  return parts.join(', ');
}

/** Moves the flags a RETURNING list carried out of the record. */
export function takeReadableFlags(record: Record<string, unknown>): void {
  let hidden: string[] | null = null;
  for (const key of Object.keys(record)) {
    if (!key.startsWith(READABLE_PREFIX)) continue;
    if (record[key] !== true) (hidden ??= []).push(key.slice(READABLE_PREFIX.length));
    delete record[key];
  }
  if (hidden !== null) unreadable.set(record, hidden);
}

/** Gives `to` the unreadable fields of `from` (a record rebuilt from a returned row), and its version. */
export function carryReadable(from: object, to: object): void {
  const hidden = unreadable.get(from);
  if (hidden !== undefined) unreadable.set(to, hidden);
  carryRowVersion(from, to);
}

/** The record as the caller may read it: without the fields the write's statement found unreadable. */
export function readableRecord<T extends object>(record: T): T {
  const hidden = unreadable.get(record);
  if (hidden === undefined) return record;
  const copy = { ...record } as Record<string, unknown>;
  for (const field of hidden) delete copy[field];
  carryRowVersion(record, copy);
  return copy as T;
}
