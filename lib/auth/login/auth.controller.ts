import { Body, Controller, Headers, HttpCode, HttpStatus, Inject, Optional, Post, Res, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../decorators/public.decorator';
import type { SvcModuleOptions } from '../../interfaces/svc-module-options.interface';
import { isProduction } from '../../node-env';
import { ApiErrorResponses } from '../../swagger/api-crud.decorators';
import { MODULE_OPTIONS_TOKEN } from '../../svc.module-definition';
import { ORGANIZATION_HEADER } from '../auth.constants';
import { LoginDto, RefreshDto, TokenPairDto } from './auth.dto';
import { SvcAuthService } from './auth.service';
import { SvcLoginThrottleInterceptor } from '../login-throttle/login-throttle.interceptor';
import { type CookieResponse, setSessionCookie } from '../cookies/session-cookie';
import type { TokenPair } from '../tokens/token.service';

/**
 * `POST /api/auth/login` and `POST /api/auth/refresh`, registered when `auth.userEntity` is set.
 * With `"cookie": true` in the body, the new access token is also set as the `svc_session` cookie.
 */
@ApiTags('auth')
@Public()
@Controller('api/auth')
export class SvcAuthController {
  private readonly secureCookies: boolean;

  constructor(
    private readonly auth: SvcAuthService,
    @Optional() @Inject(MODULE_OPTIONS_TOKEN) options?: SvcModuleOptions,
  ) {
    this.secureCookies = isProduction(options?.env ?? process.env);
  }

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
  async login(
    @Body() body: LoginDto,
    @Res({ passthrough: true }) response: CookieResponse,
    @Headers(ORGANIZATION_HEADER) organizationId?: string,
    @Headers('user-agent') userAgent?: string,
  ): Promise<TokenPair> {
    const organization = organizationId?.trim();
    const pair = await this.auth.login({ email: body.email, password: body.password, organizationId: organization || undefined, userAgent });
    return this.withCookie(body.cookie, pair, response);
  }

  @Post('refresh')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Exchange a refresh token (single use) for a new pair' })
  @ApiOkResponse({ type: TokenPairDto })
  @ApiErrorResponses(400, 401)
  async refresh(@Body() body: RefreshDto, @Res({ passthrough: true }) response: CookieResponse): Promise<TokenPair> {
    return this.withCookie(body.cookie, await this.auth.refresh(body.refreshToken), response);
  }

  private withCookie(wanted: boolean | undefined, pair: TokenPair, response: CookieResponse): TokenPair {
    if (wanted === true) setSessionCookie(response, pair.accessToken, pair.expiresIn, this.secureCookies);
    return pair;
  }
}
