import { Injectable } from '@nestjs/common';
import { MemoServiceBase } from '../../autogen/memos/memo.service.base';

/**
 * The service of Memo, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class MemoService extends MemoServiceBase {}
