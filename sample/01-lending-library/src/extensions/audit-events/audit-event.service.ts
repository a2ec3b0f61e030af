import { Injectable } from '@nestjs/common';
import { AuditEventServiceBase } from '../../autogen/audit-events/audit-event.service.base';

/**
 * The service of AuditEvent, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class AuditEventService extends AuditEventServiceBase {}
