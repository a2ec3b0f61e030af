import { Controller } from '@nestjs/common';
import { LoanItemControllerBase } from '../../autogen/loan-items/loan-item.controller.base';

/**
 * The routes of /loan-items: the generated ones are inherited from LoanItemControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('loan-items')
export class LoanItemController extends LoanItemControllerBase {}
