import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

export class LoginDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(320)
  email!: string;

  @ApiProperty({ format: 'password' })
  @IsString()
  @IsNotEmpty()
  // bcrypt reads 72 bytes; a cap also bounds the work an anonymous request can cause.
  @MaxLength(1024)
  password!: string;
}

export class RefreshDto {
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
