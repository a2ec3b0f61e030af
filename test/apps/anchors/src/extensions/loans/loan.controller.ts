import { Controller } from '@nestjs/common';
import { LoanControllerBase } from '../../autogen/loans/loan.controller.base';

/**
 * The routes of /loans: the generated ones are inherited from LoanControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('loans')
export class LoanController extends LoanControllerBase {}
