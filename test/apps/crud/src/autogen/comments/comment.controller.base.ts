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
import { BulkCreateCommentDto, CreateCommentDto, ReplaceCommentDto, UpdateCommentDto } from './comment.dto';
import { Comment } from './comment.entity';
import { CommentServiceBase } from './comment.service.base';

/** Generated routes of /comments; add yours in CommentController (src/extensions/comments/comment.controller.ts). */
@ApiTags('comments')
@ApiErrorResponses(400, 401, 403)
@CrudEntity('Comment')
@Controller('comments')
export class CommentControllerBase {
  constructor(protected readonly service: CommentServiceBase) {}

  @Get()
  @CrudOperation('find')
  @ApiOperation({ summary: 'List comments' })
  @ApiListQuery()
  @ApiPaginatedResponse(Comment)
  findMany(@ParsedRequest() request: CrudRequest): Promise<Page<Partial<Comment>> | Partial<Comment>[]> {
    return this.service.getMany(request);
  }

  @Get(':id')
  @CrudOperation('get')
  @ApiOperation({ summary: 'Get one Comment' })
  @ApiSelectionQuery()
  @ApiOkResponse({ type: Comment })
  @ApiErrorResponses(404)
  findOne(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<Partial<Comment>> {
    return this.service.findOne(id, request);
  }

  @Post()
  @CrudOperation('create')
  @ApiOperation({ summary: 'Create a Comment' })
  @ApiCreatedResponse({ type: Comment })
  @ApiErrorResponses(409, 413, 422)
  createOne(@Body() body: CreateCommentDto, @ParsedRequest() request: CrudRequest): Promise<Partial<Comment>> {
    return this.service.createOne(body, request);
  }

  @Post('bulk')
  @CrudOperation('create')
  @ApiOperation({ summary: 'Create several comments, all or none' })
  @ApiUpsertQuery()
  @ApiCreatedResponse({ type: [Comment] })
  @ApiErrorResponses(409, 413, 422)
  createMany(@Body() body: BulkCreateCommentDto, @ParsedRequest() request: CrudRequest): Promise<Partial<Comment>[]> {
    return this.service.createMany(body.bulk, request);
  }

  @Patch(':id')
  @CrudOperation('update')
  @ApiOperation({ summary: 'Update fields of a Comment' })
  @ApiOkResponse({ type: Comment })
  @ApiErrorResponses(404, 409, 422)
  updateOne(
    @Param('id', ParseIntIdPipe) id: number,
    @Body() body: UpdateCommentDto,
    @ParsedRequest() request: CrudRequest,
  ): Promise<Partial<Comment>> {
    return this.service.updateOne(id, body, request);
  }

  @Put(':id')
  @CrudOperation('update')
  @ApiOperation({ summary: 'Replace a Comment' })
  @ApiOkResponse({ type: Comment })
  @ApiErrorResponses(404, 409, 422)
  replaceOne(
    @Param('id', ParseIntIdPipe) id: number,
    @Body() body: ReplaceCommentDto,
    @ParsedRequest() request: CrudRequest,
  ): Promise<Partial<Comment>> {
    return this.service.replaceOne(id, body, request);
  }

  @Delete(':id')
  @CrudOperation('delete')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a Comment' })
  @ApiNoContentResponse()
  @ApiErrorResponses(404, 409)
  deleteOne(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<void> {
    return this.service.deleteOne(id, request);
  }
}
