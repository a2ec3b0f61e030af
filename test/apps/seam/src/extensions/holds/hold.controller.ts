import { Controller, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { CrudOperation, type CrudRequest, ParsedRequest, ParseIntIdPipe } from '@svc/nest';
import { HoldControllerBase } from '../../autogen/holds/hold.controller.base';
import type { Hold } from '../../autogen/holds/hold.entity';

/**
 * Hold scopes find, get, create and delete, not update (`enforceOn`): `release` is declared an
 * update, so the scope guard treats it as one; `touch` declares nothing and gets the strictest check.
 */
@Controller('holds')
export class HoldController extends HoldControllerBase {
  @Post(':id/release')
  @CrudOperation('update')
  @HttpCode(HttpStatus.OK)
  release(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<Partial<Hold>> {
    return this.service.updateOne(id, { released: true }, request);
  }

  @Post(':id/touch')
  @HttpCode(HttpStatus.OK)
  touch(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<Partial<Hold>> {
    return this.service.updateOne(id, { released: false }, request);
  }
}
