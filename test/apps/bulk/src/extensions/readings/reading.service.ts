import { Injectable } from '@nestjs/common';
import { ReadingServiceBase } from '../../autogen/readings/reading.service.base';

/**
 * The service of Reading, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class ReadingService extends ReadingServiceBase {}
