import { Module } from '@nestjs/common';
import { ReadingModuleBase } from '../../autogen/readings/reading.module.base';
import { ReadingServiceBase } from '../../autogen/readings/reading.service.base';
import { ReadingController } from './reading.controller';
import { ReadingService } from './reading.service';

/**
 * The module of Reading. This file is yours: `svc generate` created it once and never changes it.
 * ReadingModuleBase brings the generated side (the repository); your service is registered under
 * ReadingServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [ReadingModuleBase],
  controllers: [ReadingController],
  providers: [ReadingService, { provide: ReadingServiceBase, useExisting: ReadingService }],
  exports: [ReadingService, ReadingServiceBase],
})
export class ReadingModule {}
