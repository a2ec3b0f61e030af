import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, ValidateIf, ValidateNested } from 'class-validator';

export class CreateLoanItemDto {
  @ApiProperty()
  @IsString()
  label!: string;
}

export class UpdateLoanItemDto {
  @ApiProperty({ required: false })
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  label?: string;
}

export class ReplaceLoanItemDto extends CreateLoanItemDto {}

export class BulkCreateLoanItemDto {
  @ApiProperty({ type: [CreateLoanItemDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => CreateLoanItemDto)
  bulk!: CreateLoanItemDto[];
}
