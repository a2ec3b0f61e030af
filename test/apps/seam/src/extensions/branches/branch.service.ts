import { Injectable } from '@nestjs/common';
import type { CrudRequest } from '@svc/nest';
import { BranchServiceBase } from '../../autogen/branches/branch.service.base';

/** Hook override: cities are stored upper-cased, whichever route writes them. */
@Injectable()
export class BranchService extends BranchServiceBase {
  protected override async prepareCreate(body: object, request: CrudRequest): Promise<Record<string, unknown>> {
    return this.upperCity(await super.prepareCreate(body, request));
  }

  protected override async prepareUpdate(body: object, request: CrudRequest): Promise<Record<string, unknown>> {
    return this.upperCity(await super.prepareUpdate(body, request));
  }

  private upperCity(values: Record<string, unknown>): Record<string, unknown> {
    return typeof values.city === 'string' ? { ...values, city: values.city.toUpperCase() } : values;
  }
}
