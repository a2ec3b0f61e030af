import { Controller, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiErrorResponses, CrudOperation, type CrudRequest, ParsedRequest, ParseIntIdPipe } from '@svc/nest';
import { LoanControllerBase } from '../../autogen/loans/loan.controller.base';
import { Loan } from '../../autogen/loans/loan.entity';

/**
 * The generated loan routes (DELETE is off in .svcrc: loans are history), plus a custom route.
 * `@CrudOperation('update')` tells the scope guard what `POST /loans/:id/return` does.
 */
@Controller('loans')
export class LoanController extends LoanControllerBase {
  @Post(':id/return')
  @CrudOperation('update')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Return a loaned book copy' })
  @ApiOkResponse({ type: Loan })
  @ApiErrorResponses(404)
  returnLoan(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<Partial<Loan>> {
    return this.service.updateOne(id, { returnedAt: new Date().toISOString() }, request);
  }
}
