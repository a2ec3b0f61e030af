import { Controller } from '@nestjs/common';
import { UserControllerBase } from '../../autogen/users/user.controller.base';

/**
 * The routes of /users: the generated ones are inherited from UserControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('users')
export class UserController extends UserControllerBase {}
