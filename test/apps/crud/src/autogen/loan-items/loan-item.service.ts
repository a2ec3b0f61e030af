import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Repository } from 'typeorm';
import { LoanItem } from './loan-item.entity';

@Injectable()
export class LoanItemService extends CrudService<LoanItem> {
  constructor(@InjectRepository(LoanItem) repository: Repository<LoanItem>, runtime: SvcRuntime) {
    super(repository, runtime, 'LoanItem');
  }
}
