import { Module } from '@nestjs/common';
import { InvoiceModuleBase } from '../../autogen/invoices/invoice.module.base';
import { InvoiceServiceBase } from '../../autogen/invoices/invoice.service.base';
import { InvoiceController } from './invoice.controller';
import { InvoiceService } from './invoice.service';

/**
 * The module of Invoice. This file is yours: `svc generate` created it once and never changes it.
 * InvoiceModuleBase brings the generated side (the repository); your service is registered under
 * InvoiceServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [InvoiceModuleBase],
  controllers: [InvoiceController],
  providers: [InvoiceService, { provide: InvoiceServiceBase, useExisting: InvoiceService }],
  exports: [InvoiceService, InvoiceServiceBase],
})
export class InvoiceModule {}
