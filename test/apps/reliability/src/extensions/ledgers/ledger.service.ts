import { Injectable } from '@nestjs/common';
import { LedgerServiceBase } from '../../autogen/ledgers/ledger.service.base';

/**
 * The service of Ledger, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class LedgerService extends LedgerServiceBase {}
