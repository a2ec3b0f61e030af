import { Module } from '@nestjs/common';
import { AuditEventModuleBase } from '../../autogen/audit-events/audit-event.module.base';
import { AuditEventServiceBase } from '../../autogen/audit-events/audit-event.service.base';
import { AuditEventService } from './audit-event.service';

/**
 * The module of AuditEvent. This file is yours: `svc generate` created it once and never changes it.
 * AuditEventModuleBase brings the generated side (the repository); your service is registered under
 * AuditEventServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [AuditEventModuleBase],
  providers: [AuditEventService, { provide: AuditEventServiceBase, useExisting: AuditEventService }],
  exports: [AuditEventService, AuditEventServiceBase],
})
export class AuditEventModule {}
