import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { createCrudRequest } from '@svc/nest';
import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { AuditEvent } from '../autogen/audit-events/audit-event.entity';
import { AuditEventService } from './audit-events/audit-event.service';

class RecordAuditEventDto {
  @IsString()
  @MaxLength(100)
  action!: string;

  @IsOptional()
  @IsObject()
  details?: Record<string, unknown>;
}

/**
 * AuditEvent has `http: false` in .svcrc, so it gets no generated routes: this
 * hand-written controller owns its HTTP surface. Events are append-only, so
 * there is no update or delete route.
 */
@ApiTags('audit-events')
@Controller('audit-events')
export class AuditEventsController {
  constructor(private readonly auditEvents: AuditEventService) {}

  @Get('recent')
  @ApiOperation({ summary: 'The 20 newest audit events' })
  @ApiOkResponse({ type: [AuditEvent] })
  async recent(): Promise<Partial<AuditEvent>[]> {
    const page = await this.auditEvents.findMany(createCrudRequest('sort=created_at,DESC&limit=20'));
    return page.data;
  }

  @Post()
  @ApiOperation({ summary: 'Record an audit event' })
  @ApiCreatedResponse({ type: AuditEvent })
  record(@Body() body: RecordAuditEventDto): Promise<Partial<AuditEvent>> {
    return this.auditEvents.createOne(body, createCrudRequest());
  }
}
