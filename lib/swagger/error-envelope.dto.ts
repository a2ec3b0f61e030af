import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'title' })
  field!: string;

  @ApiProperty({ example: 'title must be a string' })
  message!: string;
}

/** The error envelope, for OpenAPI. */
export class ErrorEnvelopeDto {
  @ApiProperty({ example: 400 })
  statusCode!: number;

  @ApiProperty({ example: 'filter[0]: unknown field "nme" on Task' })
  message!: string;

  @ApiProperty({ example: 'Bad Request', description: 'HTTP reason phrase' })
  error!: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Validation problems, one per field' })
  errors?: FieldErrorDto[];
}
