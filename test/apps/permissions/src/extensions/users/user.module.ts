import { Module } from '@nestjs/common';
import { UserModuleBase } from '../../autogen/users/user.module.base';
import { UserServiceBase } from '../../autogen/users/user.service.base';
import { UserController } from './user.controller';
import { UserService } from './user.service';

/**
 * The module of User. This file is yours: `svc generate` created it once and never changes it.
 * UserModuleBase brings the generated side (the repository); your service is registered under
 * UserServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [UserModuleBase],
  controllers: [UserController],
  providers: [UserService, { provide: UserServiceBase, useExisting: UserService }],
  exports: [UserService, UserServiceBase],
})
export class UserModule {}
