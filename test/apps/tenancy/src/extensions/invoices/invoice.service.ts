import { Injectable } from '@nestjs/common';
import { InvoiceServiceBase } from '../../autogen/invoices/invoice.service.base';

/**
 * The service of Invoice, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class InvoiceService extends InvoiceServiceBase {}
