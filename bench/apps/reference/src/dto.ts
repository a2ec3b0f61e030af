import { IsBoolean, IsIn, IsInt, IsISO8601, IsNumberString, IsOptional, IsString } from 'class-validator';
import { TASK_STATUS_VALUES, type TaskStatus } from './entities';

// The same body rules as the generated DTOs of `ours`.

export class CreateTaskDto {
  @IsString()
  title!: string;

  @IsOptional()
  @IsString()
  description?: string | null;

  @IsOptional()
  @IsIn(TASK_STATUS_VALUES)
  status?: TaskStatus;

  @IsOptional()
  @IsInt()
  priority?: number;

  @IsOptional()
  @IsNumberString()
  estimate?: string | null;

  @IsOptional()
  @IsISO8601({ strict: true })
  dueAt?: string | null;

  @IsOptional()
  @IsBoolean()
  done?: boolean;

  @IsInt()
  projectId!: number;
}

export class UpdateTaskDto {
  @IsOptional()
  @IsString()
  title?: string;

  @IsOptional()
  @IsString()
  description?: string | null;

  @IsOptional()
  @IsIn(TASK_STATUS_VALUES)
  status?: TaskStatus;

  @IsOptional()
  @IsInt()
  priority?: number;

  @IsOptional()
  @IsNumberString()
  estimate?: string | null;

  @IsOptional()
  @IsISO8601({ strict: true })
  dueAt?: string | null;

  @IsOptional()
  @IsBoolean()
  done?: boolean;

  @IsOptional()
  @IsInt()
  projectId?: number;
}
