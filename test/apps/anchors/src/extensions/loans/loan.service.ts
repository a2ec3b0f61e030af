import { Injectable } from '@nestjs/common';
import { LoanServiceBase } from '../../autogen/loans/loan.service.base';

/**
 * The service of Loan, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class LoanService extends LoanServiceBase {}
