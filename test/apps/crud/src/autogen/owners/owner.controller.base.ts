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
import { BulkCreateOwnerDto, CreateOwnerDto, ReplaceOwnerDto, UpdateOwnerDto } from './owner.dto';
import { Owner } from './owner.entity';
import { OwnerServiceBase } from './owner.service.base';

/** Generated routes of /owners; add yours in OwnerController (src/extensions/owners/owner.controller.ts). */
@ApiTags('owners')
@ApiErrorResponses(400, 401, 403)
@CrudEntity('Owner')
@Controller('owners')
export class OwnerControllerBase {
  constructor(protected readonly service: OwnerServiceBase) {}

  @Get()
  @CrudOperation('find')
  @ApiOperation({ summary: 'List owners' })
  @ApiListQuery()
  @ApiPaginatedResponse(Owner)
  findMany(@ParsedRequest() request: CrudRequest): Promise<Page<Partial<Owner>> | Partial<Owner>[]> {
    return this.service.getMany(request);
  }

  @Get(':id')
  @CrudOperation('get')
  @ApiOperation({ summary: 'Get one Owner' })
  @ApiSelectionQuery()
  @ApiOkResponse({ type: Owner })
  @ApiErrorResponses(404)
  findOne(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<Partial<Owner>> {
    return this.service.findOne(id, request);
  }

  @Post()
  @CrudOperation('create')
  @ApiOperation({ summary: 'Create a Owner' })
  @ApiCreatedResponse({ type: Owner })
  @ApiErrorResponses(409, 413, 422)
  createOne(@Body() body: CreateOwnerDto, @ParsedRequest() request: CrudRequest): Promise<Partial<Owner>> {
    return this.service.createOne(body, request);
  }

  @Post('bulk')
  @CrudOperation('create')
  @ApiOperation({ summary: 'Create several owners, all or none' })
  @ApiUpsertQuery()
  @ApiCreatedResponse({ type: [Owner] })
  @ApiErrorResponses(409, 413, 422)
  createMany(@Body() body: BulkCreateOwnerDto, @ParsedRequest() request: CrudRequest): Promise<Partial<Owner>[]> {
    return this.service.createMany(body.bulk, request);
  }

  @Patch(':id')
  @CrudOperation('update')
  @ApiOperation({ summary: 'Update fields of a Owner' })
  @ApiOkResponse({ type: Owner })
  @ApiErrorResponses(404, 409, 422)
  updateOne(
    @Param('id', ParseIntIdPipe) id: number,
    @Body() body: UpdateOwnerDto,
    @ParsedRequest() request: CrudRequest,
  ): Promise<Partial<Owner>> {
    return this.service.updateOne(id, body, request);
  }

  @Put(':id')
  @CrudOperation('update')
  @ApiOperation({ summary: 'Replace a Owner' })
  @ApiOkResponse({ type: Owner })
  @ApiErrorResponses(404, 409, 422)
  replaceOne(
    @Param('id', ParseIntIdPipe) id: number,
    @Body() body: ReplaceOwnerDto,
    @ParsedRequest() request: CrudRequest,
  ): Promise<Partial<Owner>> {
    return this.service.replaceOne(id, body, request);
  }

  @Delete(':id')
  @CrudOperation('delete')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a Owner' })
  @ApiNoContentResponse()
  @ApiErrorResponses(404, 409)
  deleteOne(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<void> {
    return this.service.deleteOne(id, request);
  }
}
