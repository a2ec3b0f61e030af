import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEmail, IsString, ValidateIf, ValidateNested } from 'class-validator';

export class CreateOwnerDto {
  @ApiProperty()
  @IsString()
  name!: string;

  @ApiProperty({ format: 'email' })
  @IsEmail()
  email!: string;
}

export class UpdateOwnerDto {
  @ApiProperty({ required: false })
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  name?: string;

  @ApiProperty({ required: false, format: 'email' })
  @ValidateIf((_, value) => value !== undefined)
  @IsEmail()
  email?: string;
}

export class ReplaceOwnerDto extends CreateOwnerDto {}

export class BulkCreateOwnerDto {
  @ApiProperty({ type: [CreateOwnerDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => CreateOwnerDto)
  bulk!: CreateOwnerDto[];
}
