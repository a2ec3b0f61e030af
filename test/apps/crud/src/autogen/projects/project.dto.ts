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
import { PROJECT_STATUS_VALUES, type ProjectStatus } from './project.entity';

export class CreateProjectDto {
  @ApiProperty()
  @IsString()
  name!: string;

  @ApiProperty({ required: false, enum: PROJECT_STATUS_VALUES, default: 'active' })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(PROJECT_STATUS_VALUES)
  status?: ProjectStatus;

  @ApiProperty({ required: false, type: 'string', format: 'decimal', nullable: true, example: '12.50' })
  @IsOptional()
  @IsDecimalValue({ precision: 12, scale: 2 })
  budget?: string | number | null;

  @ApiProperty({ required: false, type: 'integer', default: 0 })
  @ValidateIf((_, value) => value !== undefined)
  @IsInt()
  priority?: number;

  @ApiProperty({ required: false, default: false })
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean()
  public?: boolean;

  @ApiProperty({ required: false, type: 'string', format: 'date-time', nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  startsAt?: string | null;

  @ApiProperty({ required: false, nullable: true, description: 'Any JSON value' })
  @IsOptional()
  @Allow()
  meta?: unknown;

  @ApiProperty({ required: false, nullable: true })
  @IsOptional()
  @IsString()
  description?: string | null;

  @ApiProperty({ required: false, type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  ownerId?: number | null;
}

export class UpdateProjectDto {
  @ApiProperty({ required: false })
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  name?: string;

  @ApiProperty({ required: false, enum: PROJECT_STATUS_VALUES })
  @ValidateIf((_, value) => value !== undefined)
  @IsIn(PROJECT_STATUS_VALUES)
  status?: ProjectStatus;

  @ApiProperty({ required: false, type: 'string', format: 'decimal', nullable: true, example: '12.50' })
  @IsOptional()
  @IsDecimalValue({ precision: 12, scale: 2 })
  budget?: string | number | null;

  @ApiProperty({ required: false, type: 'integer' })
  @ValidateIf((_, value) => value !== undefined)
  @IsInt()
  priority?: number;

  @ApiProperty({ required: false })
  @ValidateIf((_, value) => value !== undefined)
  @IsBoolean()
  public?: boolean;

  @ApiProperty({ required: false, type: 'string', format: 'date-time', nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  startsAt?: string | null;

  @ApiProperty({ required: false, nullable: true, description: 'Any JSON value' })
  @IsOptional()
  @Allow()
  meta?: unknown;

  @ApiProperty({ required: false, nullable: true })
  @IsOptional()
  @IsString()
  description?: string | null;

  @ApiProperty({ required: false, type: 'integer', nullable: true })
  @IsOptional()
  @IsInt()
  ownerId?: number | null;
}

export class ReplaceProjectDto extends CreateProjectDto {}

export class BulkCreateProjectDto {
  @ApiProperty({ type: [CreateProjectDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => CreateProjectDto)
  bulk!: CreateProjectDto[];
}
