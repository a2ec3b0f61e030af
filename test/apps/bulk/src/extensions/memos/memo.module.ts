import { Module } from '@nestjs/common';
import { MemoModuleBase } from '../../autogen/memos/memo.module.base';
import { MemoServiceBase } from '../../autogen/memos/memo.service.base';
import { MemoController } from './memo.controller';
import { MemoService } from './memo.service';

/**
 * The module of Memo. This file is yours: `svc generate` created it once and never changes it.
 * MemoModuleBase brings the generated side (the repository); your service is registered under
 * MemoServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [MemoModuleBase],
  controllers: [MemoController],
  providers: [MemoService, { provide: MemoServiceBase, useExisting: MemoService }],
  exports: [MemoService, MemoServiceBase],
})
export class MemoModule {}
