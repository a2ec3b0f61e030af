import { Injectable } from '@nestjs/common';
import { CrudService, SvcRuntime } from '@svc/nest';
import { Owner } from './owner.entity';

/** Generated CRUD service of Owner; hooks go in OwnerService (src/extensions/owners/owner.service.ts). */
@Injectable()
export class OwnerServiceBase extends CrudService<Owner> {
  constructor(runtime: SvcRuntime) {
    super(runtime, 'Owner');
  }
}
