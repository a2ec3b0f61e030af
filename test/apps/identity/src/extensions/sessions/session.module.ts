import { Module } from '@nestjs/common';
import { SessionModuleBase } from '../../autogen/sessions/session.module.base';
import { SessionServiceBase } from '../../autogen/sessions/session.service.base';
import { SessionService } from './session.service';

/**
 * The module of Session. This file is yours: `svc generate` created it once and never changes it.
 * SessionModuleBase brings the generated side (the repository); your service is registered under
 * SessionServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [SessionModuleBase],
  providers: [SessionService, { provide: SessionServiceBase, useExisting: SessionService }],
  exports: [SessionService, SessionServiceBase],
})
export class SessionModule {}
