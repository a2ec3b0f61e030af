import { Injectable } from '@nestjs/common';
import { ProjectServiceBase } from '../../autogen/projects/project.service.base';

/**
 * The service of Project, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class ProjectService extends ProjectServiceBase {}
