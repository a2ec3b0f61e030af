import { Controller } from '@nestjs/common';
import { ReviewControllerBase } from '../../autogen/reviews/review.controller.base';

/**
 * The routes of /reviews: the generated ones are inherited from ReviewControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('reviews')
export class ReviewController extends ReviewControllerBase {}
