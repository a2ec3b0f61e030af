import { Injectable } from '@nestjs/common';
import { CrudService, SvcRuntime } from '@svc/nest';
import { LoanItem } from './loan-item.entity';

/** Generated CRUD service of LoanItem; hooks go in LoanItemService (src/extensions/loan-items/loan-item.service.ts). */
@Injectable()
export class LoanItemServiceBase extends CrudService<LoanItem> {
  constructor(runtime: SvcRuntime) {
    super(runtime, 'LoanItem');
  }
}
