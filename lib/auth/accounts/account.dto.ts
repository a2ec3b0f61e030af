import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../passwords/password-policy';

export class ChangePasswordDto {
  @ApiProperty({ format: 'password' })
  @IsString()
  @IsNotEmpty()
  currentPassword!: string;

  /** Its length is checked in characters by the password policy, as on every route that sets a password. */
  @ApiProperty({ format: 'password', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @IsNotEmpty()
  newPassword!: string;
}

export class ChangeEmailDto {
  @ApiProperty({ format: 'password' })
  @IsString()
  @IsNotEmpty()
  currentPassword!: string;

  /** The new login e-mail; stored normalized (trimmed, lower case), as every login e-mail. */
  @ApiProperty({ format: 'email', maxLength: 320 })
  @IsEmail()
  @MaxLength(320)
  newEmail!: string;
}

export class ResetPasswordDto {
  /** Its length is checked in characters by the password policy, as on every route that sets a password. */
  @ApiProperty({ format: 'password', minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @IsNotEmpty()
  newPassword!: string;
}

export class LogoutDto {
  @ApiPropertyOptional({ description: 'Refresh token to revoke with its family, when the access token names no session' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  refreshToken?: string;
}
