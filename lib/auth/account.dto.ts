import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_PASSWORD_LENGTH } from './password';

export class ChangePasswordDto {
  @ApiProperty({ format: 'password' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_PASSWORD_LENGTH)
  currentPassword!: string;

  @ApiProperty({ format: 'password', maxLength: MAX_PASSWORD_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_PASSWORD_LENGTH)
  newPassword!: string;
}

export class ResetPasswordDto {
  @ApiProperty({ format: 'password', maxLength: MAX_PASSWORD_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_PASSWORD_LENGTH)
  newPassword!: string;
}

export class LogoutDto {
  @ApiPropertyOptional({ description: 'Refresh token to revoke with its family, when the access token names no session' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  refreshToken?: string;
}
