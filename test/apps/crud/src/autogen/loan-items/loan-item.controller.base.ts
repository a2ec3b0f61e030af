import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrorResponses,
  ApiListQuery,
  ApiPaginatedResponse,
  ApiSelectionQuery,
  ApiUpsertQuery,
  CrudEntity,
  CrudOperation,
  type CrudRequest,
  type Page,
  ParsedRequest,
  ParseIntIdPipe,
} from '@svc/nest';
import { BulkCreateLoanItemDto, CreateLoanItemDto, ReplaceLoanItemDto, UpdateLoanItemDto } from './loan-item.dto';
import { LoanItem } from './loan-item.entity';
import { LoanItemServiceBase } from './loan-item.service.base';

/** Generated routes of /loan-items; add yours in LoanItemController (src/extensions/loan-items/loan-item.controller.ts). */
@ApiTags('loan-items')
@ApiErrorResponses(400, 401, 403)
@CrudEntity('LoanItem')
@Controller('loan-items')
export class LoanItemControllerBase {
  constructor(protected readonly service: LoanItemServiceBase) {}

  @Get()
  @CrudOperation('find')
  @ApiOperation({ summary: 'List loan-items' })
  @ApiListQuery()
  @ApiPaginatedResponse(LoanItem)
  findMany(@ParsedRequest() request: CrudRequest): Promise<Page<Partial<LoanItem>> | Partial<LoanItem>[]> {
    return this.service.getMany(request);
  }

  @Get(':id')
  @CrudOperation('get')
  @ApiOperation({ summary: 'Get one LoanItem' })
  @ApiSelectionQuery()
  @ApiOkResponse({ type: LoanItem })
  @ApiErrorResponses(404)
  findOne(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<Partial<LoanItem>> {
    return this.service.findOne(id, request);
  }

  @Post()
  @CrudOperation('create')
  @ApiOperation({ summary: 'Create a LoanItem' })
  @ApiCreatedResponse({ type: LoanItem })
  @ApiErrorResponses(409, 413, 422)
  createOne(@Body() body: CreateLoanItemDto, @ParsedRequest() request: CrudRequest): Promise<Partial<LoanItem>> {
    return this.service.createOne(body, request);
  }

  @Post('bulk')
  @CrudOperation('create')
  @ApiOperation({ summary: 'Create several loan-items, all or none' })
  @ApiUpsertQuery()
  @ApiCreatedResponse({ type: [LoanItem] })
  @ApiErrorResponses(409, 413, 422)
  createMany(@Body() body: BulkCreateLoanItemDto, @ParsedRequest() request: CrudRequest): Promise<Partial<LoanItem>[]> {
    return this.service.createMany(body.bulk, request);
  }

  @Patch(':id')
  @CrudOperation('update')
  @ApiOperation({ summary: 'Update fields of a LoanItem' })
  @ApiOkResponse({ type: LoanItem })
  @ApiErrorResponses(404, 409, 422)
  updateOne(
    @Param('id', ParseIntIdPipe) id: number,
    @Body() body: UpdateLoanItemDto,
    @ParsedRequest() request: CrudRequest,
  ): Promise<Partial<LoanItem>> {
    return this.service.updateOne(id, body, request);
  }

  @Put(':id')
  @CrudOperation('update')
  @ApiOperation({ summary: 'Replace a LoanItem' })
  @ApiOkResponse({ type: LoanItem })
  @ApiErrorResponses(404, 409, 422)
  replaceOne(
    @Param('id', ParseIntIdPipe) id: number,
    @Body() body: ReplaceLoanItemDto,
    @ParsedRequest() request: CrudRequest,
  ): Promise<Partial<LoanItem>> {
    return this.service.replaceOne(id, body, request);
  }

  @Delete(':id')
  @CrudOperation('delete')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a LoanItem' })
  @ApiNoContentResponse()
  @ApiErrorResponses(404, 409)
  deleteOne(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<void> {
    return this.service.deleteOne(id, request);
  }
}
