import { createHash } from 'node:crypto';
import { ETAG_HEADER, formatEntityTag, versionOfTag } from '../preconditions/entity-tag';
import type { CrudRequest } from '../interfaces/crud-request.interface';
import { PreconditionFailedException, PreconditionRequiredException } from '../exceptions/precondition.exceptions';
import { ALL_CELLS, type CellAccess } from '../sql/cell-access';
import type { RootCondition } from '../sql/conditions';
import { rowVersionOf } from '../sql/row-version';
import { rowVersionIn } from '../sql/row-version-condition';

/**
 * `If-Match` on the writes of one record, and the `ETag` of the answers. The check is a condition
 * of the write's own statement (`WHERE ... AND md5(ROW(...)::text) = ANY($n)`), so of concurrent
 * writers carrying the same tag exactly one finds the row still at that version.
 */
export class RecordPreconditions {
  constructor(private readonly required: boolean) {}

  /**
   * The condition `If-Match` adds to a write by id: none for `*` (the write needs the row to exist
   * anyway) or without the header, else the row's version is one the strong tags name. Weak tags
   * never match (strong comparison, RFC 9110 13.1.1). 428 when the header is required and missing.
   */
  conditions(request: CrudRequest, what: string, cells: CellAccess = ALL_CELLS): RootCondition[] {
    const ifMatch = request.preconditions?.ifMatch;
    if (request.preconditions !== undefined && ifMatch === null && this.required) {
      throw new PreconditionRequiredException(
        `${what} needs an If-Match header (api.requireIfMatch): send the ETag of a GET of the record, or * to only require that it exists`,
      );
    }
    if (ifMatch === undefined || ifMatch === null || ifMatch === '*') return [];
    const versions = ifMatch.flatMap((tag) => {
      const version = tag.weak ? undefined : versionOfTag(tag.opaque);
      return version === undefined ? [] : [version];
    });
    return [rowVersionIn(versions, cells)];
  }

  /** Whether a write that matched no row may have missed only because of `If-Match` (then 412, not 404). */
  versioned(request: CrudRequest): boolean {
    const ifMatch = request.preconditions?.ifMatch;
    return ifMatch !== undefined && ifMatch !== null && ifMatch !== '*';
  }

  failed(what: string): PreconditionFailedException {
    return new PreconditionFailedException(`${what} has changed since the version If-Match names; GET it again for its current ETag`);
  }

  /**
   * Sends the `ETag` of an answered record. A `fields` or `join` shapes another representation of
   * the same row: its tag carries a hash of the answer after the row version, so it changes when a
   * joined row does, and still works in `If-Match` (which compares the row version only).
   */
  sendTag(request: CrudRequest, record: object, shaped = false): void {
    const version = rowVersionOf(record);
    if (version === undefined) return;
    const shape = shaped ? createHash('sha256').update(JSON.stringify(record)).digest('hex').slice(0, 16) : undefined;
    request.setHeader?.(ETAG_HEADER, formatEntityTag(version, shape));
  }
}
