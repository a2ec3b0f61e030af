import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsString, ValidateIf, ValidateNested } from 'class-validator';

export class CreateCommentDto {
  @ApiProperty()
  @IsString()
  body!: string;

  @ApiProperty({ type: 'integer' })
  @IsInt()
  taskId!: number;
}

export class UpdateCommentDto {
  @ApiProperty({ required: false })
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  body?: string;

  @ApiProperty({ required: false, type: 'integer' })
  @ValidateIf((_, value) => value !== undefined)
  @IsInt()
  taskId?: number;
}

export class ReplaceCommentDto extends CreateCommentDto {}

export class BulkCreateCommentDto {
  @ApiProperty({ type: [CreateCommentDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => CreateCommentDto)
  bulk!: CreateCommentDto[];
}
