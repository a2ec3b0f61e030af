import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PASSWORD_MAX_LENGTH } from '../passwords/password-policy';

/** The `cookie` flag of login and refresh. */
export class SessionCookieOptionDto {
  @ApiPropertyOptional({
    description:
      'true: also set the access token as the `svc_session` cookie (HttpOnly, SameSite=Lax, Path=/, Secure in production), ' +
      'for browser apps. Default false. The token pair is in the body either way.',
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  cookie?: boolean;
}

export class LoginDto extends SessionCookieOptionDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  email!: string;

  @ApiProperty({ format: 'password', maxLength: PASSWORD_MAX_LENGTH })
  @IsString()
  @IsNotEmpty()
  @MaxLength(PASSWORD_MAX_LENGTH)
  password!: string;
}

export class RefreshDto extends SessionCookieOptionDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(4096)
  refreshToken!: string;
}

export class TokenPairDto {
  @ApiProperty({ description: 'HS256 access token; send as `Authorization: Bearer <token>`' })
  accessToken!: string;

  @ApiProperty({ description: 'Single-use refresh token for POST /api/auth/refresh' })
  refreshToken!: string;

  @ApiProperty({ enum: ['Bearer'] })
  tokenType!: 'Bearer';

  @ApiProperty({ type: 'integer', description: 'Access token lifetime in seconds' })
  expiresIn!: number;
}
