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
import { BulkCreateProjectDto, CreateProjectDto, ReplaceProjectDto, UpdateProjectDto } from './project.dto';
import { Project } from './project.entity';
import { ProjectServiceBase } from './project.service.base';

/** Generated routes of /projects; add yours in ProjectController (src/extensions/projects/project.controller.ts). */
@ApiTags('projects')
@ApiErrorResponses(400, 401, 403)
@CrudEntity('Project')
@Controller('projects')
export class ProjectControllerBase {
  constructor(protected readonly service: ProjectServiceBase) {}

  @Get()
  @CrudOperation('find')
  @ApiOperation({ summary: 'List projects' })
  @ApiListQuery()
  @ApiPaginatedResponse(Project)
  findMany(@ParsedRequest() request: CrudRequest): Promise<Page<Partial<Project>> | Partial<Project>[]> {
    return this.service.getMany(request);
  }

  @Get(':id')
  @CrudOperation('get')
  @ApiOperation({ summary: 'Get one Project' })
  @ApiSelectionQuery()
  @ApiOkResponse({ type: Project })
  @ApiErrorResponses(404)
  findOne(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<Partial<Project>> {
    return this.service.findOne(id, request);
  }

  @Post()
  @CrudOperation('create')
  @ApiOperation({ summary: 'Create a Project' })
  @ApiCreatedResponse({ type: Project })
  @ApiErrorResponses(409, 413, 422)
  createOne(@Body() body: CreateProjectDto, @ParsedRequest() request: CrudRequest): Promise<Partial<Project>> {
    return this.service.createOne(body, request);
  }

  @Post('bulk')
  @CrudOperation('create')
  @ApiOperation({ summary: 'Create several projects, all or none' })
  @ApiUpsertQuery()
  @ApiCreatedResponse({ type: [Project] })
  @ApiErrorResponses(409, 413, 422)
  createMany(@Body() body: BulkCreateProjectDto, @ParsedRequest() request: CrudRequest): Promise<Partial<Project>[]> {
    return this.service.createMany(body.bulk, request);
  }

  @Patch(':id')
  @CrudOperation('update')
  @ApiOperation({ summary: 'Update fields of a Project' })
  @ApiOkResponse({ type: Project })
  @ApiErrorResponses(404, 409, 422)
  updateOne(
    @Param('id', ParseIntIdPipe) id: number,
    @Body() body: UpdateProjectDto,
    @ParsedRequest() request: CrudRequest,
  ): Promise<Partial<Project>> {
    return this.service.updateOne(id, body, request);
  }

  @Put(':id')
  @CrudOperation('update')
  @ApiOperation({ summary: 'Replace a Project' })
  @ApiOkResponse({ type: Project })
  @ApiErrorResponses(404, 409, 422)
  replaceOne(
    @Param('id', ParseIntIdPipe) id: number,
    @Body() body: ReplaceProjectDto,
    @ParsedRequest() request: CrudRequest,
  ): Promise<Partial<Project>> {
    return this.service.replaceOne(id, body, request);
  }

  @Delete(':id')
  @CrudOperation('delete')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a Project' })
  @ApiNoContentResponse()
  @ApiErrorResponses(404, 409)
  deleteOne(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<void> {
    return this.service.deleteOne(id, request);
  }

  @Patch(':id/recover')
  @CrudOperation('update')
  @ApiOperation({ summary: 'Restore a deleted Project' })
  @ApiOkResponse({ type: Project })
  @ApiErrorResponses(404)
  recoverOne(@Param('id', ParseIntIdPipe) id: number, @ParsedRequest() request: CrudRequest): Promise<Partial<Project>> {
    return this.service.recoverOne(id, request);
  }
}
