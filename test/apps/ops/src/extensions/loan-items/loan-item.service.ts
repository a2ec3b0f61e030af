import { Injectable } from '@nestjs/common';
import { LoanItemServiceBase } from '../../autogen/loan-items/loan-item.service.base';

/**
 * The service of LoanItem, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class LoanItemService extends LoanItemServiceBase {}
