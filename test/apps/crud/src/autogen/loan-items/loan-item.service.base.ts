import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Repository } from 'typeorm';
import { LoanItem } from './loan-item.entity';

/** Generated CRUD service of LoanItem; hooks go in LoanItemService (src/extensions/loan-items/loan-item.service.ts). */
@Injectable()
export class LoanItemServiceBase extends CrudService<LoanItem> {
  constructor(@InjectRepository(LoanItem) repository: Repository<LoanItem>, runtime: SvcRuntime) {
    super(repository, runtime, 'LoanItem');
  }
}
