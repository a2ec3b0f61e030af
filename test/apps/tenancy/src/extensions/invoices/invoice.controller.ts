import { Controller } from '@nestjs/common';
import { InvoiceControllerBase } from '../../autogen/invoices/invoice.controller.base';

/**
 * The routes of /invoices: the generated ones are inherited from InvoiceControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('invoices')
export class InvoiceController extends InvoiceControllerBase {}
