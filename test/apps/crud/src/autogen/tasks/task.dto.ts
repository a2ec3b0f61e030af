import { IsDecimalValue } from '@svc/nest';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { TASK_STATE_VALUES, type TaskState } from './task.entity';

export class CreateTaskDto {
  @ApiProperty()
  @IsString()
  title!: string;

  @ApiProperty({ required: false, default: false })
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean()
  done?: boolean;

  @ApiProperty({ required: false, type: 'string', format: 'decimal', nullable: true, example: '12.5' })
  @IsOptional()
  @IsDecimalValue({ precision: 6, scale: 1 })
  estimate?: string | number | null;

  @ApiProperty({ required: false, enum: TASK_STATE_VALUES, default: 'todo' })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(TASK_STATE_VALUES)
  state?: TaskState;

  @ApiProperty({ required: false, type: 'string', format: 'date-time', nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  dueAt?: string | null;

  @ApiProperty({ required: false, type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  rank?: number | null;

  @ApiProperty({ required: false, nullable: true, description: 'Any JSON value' })
  @IsOptional()
  @Allow()
  labels?: unknown;

  @ApiProperty({ required: false, type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  projectId?: number | null;
}

export class UpdateTaskDto {
  @ApiProperty({ required: false })
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  title?: string;

  @ApiProperty({ required: false })
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean()
  done?: boolean;

  @ApiProperty({ required: false, type: 'string', format: 'decimal', nullable: true, example: '12.5' })
  @IsOptional()
  @IsDecimalValue({ precision: 6, scale: 1 })
  estimate?: string | number | null;

  @ApiProperty({ required: false, enum: TASK_STATE_VALUES })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(TASK_STATE_VALUES)
  state?: TaskState;

  @ApiProperty({ required: false, type: 'string', format: 'date-time', nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  dueAt?: string | null;

  @ApiProperty({ required: false, type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  rank?: number | null;

  @ApiProperty({ required: false, nullable: true, description: 'Any JSON value' })
  @IsOptional()
  @Allow()
  labels?: unknown;

  @ApiProperty({ required: false, type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  projectId?: number | null;
}

export class ReplaceTaskDto extends CreateTaskDto {}

export class BulkCreateTaskDto {
  @ApiProperty({ type: [CreateTaskDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => CreateTaskDto)
  bulk!: CreateTaskDto[];
}
