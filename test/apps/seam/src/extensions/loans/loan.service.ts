import { Injectable } from '@nestjs/common';
import type { CrudOperation, CrudRequest, FieldCondition, Page, RawSqlCondition } from '@svc/nest';
import type { Loan } from '../../autogen/loans/loan.entity';
import { LoanServiceBase } from '../../autogen/loans/loan.service.base';

/** A request whose list is narrowed further by a condition its route built. */
interface MatchingRequest extends CrudRequest {
  readonly matching: FieldCondition;
}

/** Titles longer than this came from the old catalogue: such loans are frozen. */
const FROZEN_TITLE_LENGTH = 40;

/**
 * A `conditions()` override: lists show open loans only (a returned loan is still found by id),
 * and `findMatching()` narrows a list by a field the caller names. The tenant scope applies on
 * top of both; a field name that is not a field of Loan is refused before any SQL is written.
 * A `rawSqlConditions()` override says what no operator of `s` can (a title's length): loans
 * with long titles leave lists and no update reaches them.
 */
@Injectable()
export class LoanService extends LoanServiceBase {
  /** The open loans of the caller's organization whose `field` equals `value`, one page. */
  findMatching(field: string, value: string, request: CrudRequest): Promise<Page<Partial<Loan>>> {
    const matching: MatchingRequest = { ...request, matching: { field, operator: '$eq', value } };
    return this.findMany(matching);
  }

  protected override conditions(request: CrudRequest, operation: CrudOperation): FieldCondition[] {
    if (operation !== 'find') return [];
    const open: FieldCondition = { field: 'returned', operator: '$eq', value: false };
    return isMatching(request) ? [open, request.matching] : [open];
  }

  protected override rawSqlConditions(_request: CrudRequest, operation: CrudOperation): RawSqlCondition[] {
    if (operation !== 'find' && operation !== 'update') return [];
    return [(row, sql) => `${row.column('title')} IS NULL OR char_length(${row.column('title')}) <= ${sql.param(FROZEN_TITLE_LENGTH)}`];
  }
}

function isMatching(request: CrudRequest): request is MatchingRequest {
  return 'matching' in request;
}
