import { Module } from '@nestjs/common';
import { ReviewModuleBase } from '../../autogen/reviews/review.module.base';
import { ReviewServiceBase } from '../../autogen/reviews/review.service.base';
import { ReviewController } from './review.controller';
import { ReviewService } from './review.service';

/**
 * The module of Review. This file is yours: `svc generate` created it once and never changes it.
 * ReviewModuleBase brings the generated side (the repository); your service is registered under
 * ReviewServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [ReviewModuleBase],
  controllers: [ReviewController],
  providers: [ReviewService, { provide: ReviewServiceBase, useExisting: ReviewService }],
  exports: [ReviewService, ReviewServiceBase],
})
export class ReviewModule {}
