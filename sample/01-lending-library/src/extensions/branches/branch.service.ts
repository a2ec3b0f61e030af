import { Injectable } from '@nestjs/common';
import type { CrudRequest } from '@svc/nest';
import { BranchServiceBase } from '../../autogen/branches/branch.service.base';

/** A hook override: cities are stored upper-cased ("Lyon" is kept as "LYON"), on create and on update. */
@Injectable()
export class BranchService extends BranchServiceBase {
  protected override async prepareCreate(body: object, request: CrudRequest): Promise<Record<string, unknown>> {
    return upperCity(await super.prepareCreate(body, request));
  }

  protected override async prepareUpdate(body: object, request: CrudRequest): Promise<Record<string, unknown>> {
    return upperCity(await super.prepareUpdate(body, request));
  }
}

function upperCity(values: Record<string, unknown>): Record<string, unknown> {
  return typeof values.city === 'string' ? { ...values, city: values.city.toUpperCase() } : values;
}
