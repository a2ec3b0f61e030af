import { Injectable } from '@nestjs/common';
import { TaskServiceBase } from '../../autogen/tasks/task.service.base';

/**
 * The service of Task, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class TaskService extends TaskServiceBase {}
