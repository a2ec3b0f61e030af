import { Controller } from '@nestjs/common';
import { LedgerControllerBase } from '../../autogen/ledgers/ledger.controller.base';

/**
 * The routes of /ledgers: the generated ones are inherited from LedgerControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('ledgers')
export class LedgerController extends LedgerControllerBase {}
