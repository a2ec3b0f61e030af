import { Body, Controller, Headers, HttpCode, HttpStatus, Post, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../decorators/public.decorator';
import { ApiErrorResponses } from '../swagger/api-crud.decorators';
import { ORGANIZATION_HEADER } from './auth.constants';
import { LoginDto, RefreshDto, TokenPairDto } from './auth.dto';
import { SvcAuthService } from './auth.service';
import { SvcLoginThrottleInterceptor } from './login-throttle.interceptor';
import type { TokenPair } from './token.service';

/** `POST /api/auth/login` and `POST /api/auth/refresh`, registered when `auth.userEntity` is set. */
@ApiTags('auth')
@Public()
@Controller('api/auth')
export class SvcAuthController {
  constructor(private readonly auth: SvcAuthService) {}

  @Post('login')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Exchange e-mail and password for an access and a refresh token' })
  @ApiHeader({
    name: 'X-Organization-Id',
    required: false,
    description: 'Organization to log in to, when the user has several memberships',
  })
  @ApiOkResponse({ type: TokenPairDto })
  @ApiErrorResponses(400, 401, 403, 429)
  @UseInterceptors(SvcLoginThrottleInterceptor)
  login(
    @Body() body: LoginDto,
    @Headers(ORGANIZATION_HEADER) organizationId?: string,
    @Headers('user-agent') userAgent?: string,
  ): Promise<TokenPair> {
    const organization = organizationId?.trim();
    return this.auth.login({ email: body.email, password: body.password, organizationId: organization || undefined, userAgent });
  }

  @Post('refresh')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Exchange a refresh token (single use) for a new pair' })
  @ApiOkResponse({ type: TokenPairDto })
  @ApiErrorResponses(400, 401)
  refresh(@Body() body: RefreshDto): Promise<TokenPair> {
    return this.auth.refresh(body.refreshToken);
  }
}
