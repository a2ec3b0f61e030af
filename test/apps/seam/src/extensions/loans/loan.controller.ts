import { Controller, Get, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CrudOperation, type CrudRequest, CrudRoutes, type Page, ParsedRequest, ParseIntIdPipe } from '@svc/nest';
import { LoanControllerBase } from '../../autogen/loans/loan.controller.base';
import { Loan } from '../../autogen/loans/loan.entity';
import { ManagerGuard } from '../manager.guard';
import { LoanService } from './loan.service';

/** Custom routes with their declared operations, and a guard on one generated route. */
@CrudRoutes({ delete: [UseGuards(ManagerGuard)] })
@Controller('loans')
export class LoanController extends LoanControllerBase {
  constructor(private readonly loans: LoanService) {
    super(loans);
  }

  @Post(':id/return')
  @CrudOperation('update')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Mark a Loan returned' })
  @ApiOkResponse({ type: Loan })
  returnLoan(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<Partial<Loan>> {
    return this.service.updateOne(id, { returned: true }, request);
  }

  /** A field named by the caller reaches SQL only through the service's `conditions()`, checked against Loan's fields. */
  @Get('matching/:field/:value')
  @CrudOperation('find')
  @ApiOperation({ summary: 'Open loans whose field equals a value' })
  findMatching(
    @Param('field') field: string,
    @Param('value') value: string,
    @ParsedRequest() request: CrudRequest,
  ): Promise<Page<Partial<Loan>>> {
    return this.loans.findMatching(field, value, request);
  }
}
