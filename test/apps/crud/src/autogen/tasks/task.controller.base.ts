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
import { BulkCreateTaskDto, CreateTaskDto, ReplaceTaskDto, UpdateTaskDto } from './task.dto';
import { Task } from './task.entity';
import { TaskServiceBase } from './task.service.base';

/** Generated routes of /tasks; add yours in TaskController (src/extensions/tasks/task.controller.ts). */
@ApiTags('tasks')
@ApiErrorResponses(400, 401, 403)
@CrudEntity('Task')
@Controller('tasks')
export class TaskControllerBase {
  constructor(protected readonly service: TaskServiceBase) {}

  @Get()
  @CrudOperation('find')
  @ApiOperation({ summary: 'List tasks' })
  @ApiListQuery()
  @ApiPaginatedResponse(Task)
  findMany(@ParsedRequest() request: CrudRequest): Promise<Page<Partial<Task>> | Partial<Task>[]> {
    return this.service.getMany(request);
  }

  @Get(':id')
  @CrudOperation('get')
  @ApiOperation({ summary: 'Get one Task' })
  @ApiSelectionQuery()
  @ApiOkResponse({ type: Task })
  @ApiErrorResponses(404)
  findOne(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<Partial<Task>> {
    return this.service.findOne(id, request);
  }

  @Post()
  @CrudOperation('create')
  @ApiOperation({ summary: 'Create a Task' })
  @ApiCreatedResponse({ type: Task })
  @ApiErrorResponses(409, 413, 422)
  createOne(@Body() body: CreateTaskDto, @ParsedRequest() request: CrudRequest): Promise<Partial<Task>> {
    return this.service.createOne(body, request);
  }

  @Post('bulk')
  @CrudOperation('create')
  @ApiOperation({ summary: 'Create several tasks, all or none' })
  @ApiUpsertQuery()
  @ApiCreatedResponse({ type: [Task] })
  @ApiErrorResponses(409, 413, 422)
  createMany(@Body() body: BulkCreateTaskDto, @ParsedRequest() request: CrudRequest): Promise<Partial<Task>[]> {
    return this.service.createMany(body.bulk, request);
  }

  @Patch(':id')
  @CrudOperation('update')
  @ApiOperation({ summary: 'Update fields of a Task' })
  @ApiOkResponse({ type: Task })
  @ApiErrorResponses(404, 409, 422)
  updateOne(
    @Param('id', ParseIntIdPipe) id: number,
    @Body() body: UpdateTaskDto,
    @ParsedRequest() request: CrudRequest,
  ): Promise<Partial<Task>> {
    return this.service.updateOne(id, body, request);
  }

  @Put(':id')
  @CrudOperation('update')
  @ApiOperation({ summary: 'Replace a Task' })
  @ApiOkResponse({ type: Task })
  @ApiErrorResponses(404, 409, 422)
  replaceOne(
    @Param('id', ParseIntIdPipe) id: number,
    @Body() body: ReplaceTaskDto,
    @ParsedRequest() request: CrudRequest,
  ): Promise<Partial<Task>> {
    return this.service.replaceOne(id, body, request);
  }

  @Delete(':id')
  @CrudOperation('delete')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a Task' })
  @ApiNoContentResponse()
  @ApiErrorResponses(404, 409)
  deleteOne(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<void> {
    return this.service.deleteOne(id, request);
  }
}
