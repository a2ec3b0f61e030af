import { Injectable } from '@nestjs/common';
import { ReviewServiceBase } from '../../autogen/reviews/review.service.base';

/**
 * The service of Review, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class ReviewService extends ReviewServiceBase {}
