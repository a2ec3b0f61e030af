import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Repository } from 'typeorm';
import { Owner } from './owner.entity';

/** Generated CRUD service of Owner; hooks go in OwnerService (src/extensions/owners/owner.service.ts). */
@Injectable()
export class OwnerServiceBase extends CrudService<Owner> {
  constructor(@InjectRepository(Owner) repository: Repository<Owner>, runtime: SvcRuntime) {
    super(repository, runtime, 'Owner');
  }
}
