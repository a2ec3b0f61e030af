import { Injectable } from '@nestjs/common';
import { UserServiceBase } from '../../autogen/users/user.service.base';

/**
 * The service of User, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class UserService extends UserServiceBase {}
