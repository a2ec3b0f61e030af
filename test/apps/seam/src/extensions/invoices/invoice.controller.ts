import { Controller } from '@nestjs/common';
import { CrudRoutes } from '@svc/nest';
import { InvoiceControllerBase } from '../../autogen/invoices/invoice.controller.base';

/** DELETE is off in .svcrc (`"routes": { "delete": false }`); PUT is turned off here. */
@CrudRoutes({ replace: false })
@Controller('invoices')
export class InvoiceController extends InvoiceControllerBase {}
