import { Injectable } from '@nestjs/common';
import { SessionServiceBase } from '../../autogen/sessions/session.service.base';

/**
 * The service of Session, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class SessionService extends SessionServiceBase {}
