import { Controller } from '@nestjs/common';
import { BranchControllerBase } from '../../autogen/branches/branch.controller.base';

/**
 * The routes of /branches: the generated ones are inherited from BranchControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('branches')
export class BranchController extends BranchControllerBase {}
