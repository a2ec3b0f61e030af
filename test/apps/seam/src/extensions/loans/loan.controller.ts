import { Controller, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CrudOperation, type CrudRequest, CrudRoutes, ParsedRequest, ParseIntIdPipe } from '@svc/nest';
import { LoanControllerBase } from '../../autogen/loans/loan.controller.base';
import { Loan } from '../../autogen/loans/loan.entity';
import { ManagerGuard } from '../manager.guard';

/** A custom route with its declared operation, and a guard on one generated route. */
@CrudRoutes({ delete: [UseGuards(ManagerGuard)] })
@Controller('loans')
export class LoanController extends LoanControllerBase {
  @Post(':id/return')
  @CrudOperation('update')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Mark a Loan returned' })
  @ApiOkResponse({ type: Loan })
  returnLoan(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<Partial<Loan>> {
    return this.service.updateOne(id, { returned: true }, request);
  }
}
