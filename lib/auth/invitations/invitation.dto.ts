import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../passwords/password-policy';

export class CreateInvitationDto {
  @ApiProperty({ format: 'email', description: 'The address invited; stored normalized, as login e-mails are' })
  @IsString()
  @IsEmail()
  @MaxLength(320)
  email!: string;

  @ApiPropertyOptional({ description: "Role of the membership; a value of the membership's role field, never a system (bypass) role" })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  role?: string;
}

export class AcceptInvitationDto {
  @ApiProperty({ description: 'The token returned when the invitation was created' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token!: string;

  /** Its length is checked in characters by the password policy, as on every route that sets a password. */
  @ApiPropertyOptional({
    format: 'password',
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
    description: 'Without a credential: the password of the account created for the invited address',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  password?: string;
}

export class InvitationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() organizationId!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ nullable: true, type: String }) role!: string | null;
  @ApiProperty({ nullable: true, type: String }) invitedBy!: string | null;
  @ApiProperty() expiresAt!: Date;
  @ApiProperty() createdAt!: Date;
}

export class CreatedInvitationDto extends InvitationDto {
  @ApiProperty({ description: 'Shown once: send it to the invited person (the invitation.created event carries it too)' })
  token!: string;
}
