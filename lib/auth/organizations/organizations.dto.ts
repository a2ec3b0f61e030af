import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { SessionCookieOptionDto } from '../login/auth.dto';

export class OrganizationChoiceDto {
  @ApiProperty({ example: '7' })
  organizationId!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: "The organization entity's `name` (or `title`), when it has one" })
  name!: string | null;

  @ApiProperty({ type: [String], description: "The caller's roles in that organization" })
  roles!: string[];

  @ApiProperty({ description: "Whether the caller's credential is bound to this organization" })
  current!: boolean;
}

export class SwitchOrganizationDto extends SessionCookieOptionDto {
  @ApiProperty({ example: '7', description: 'An organization of GET /api/auth/organizations' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  organizationId!: string;
}
