import { Controller } from '@nestjs/common';
import { MemoControllerBase } from '../../autogen/memos/memo.controller.base';

/**
 * The routes of /memos: the generated ones are inherited from MemoControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('memos')
export class MemoController extends MemoControllerBase {}
