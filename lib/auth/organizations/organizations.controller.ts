import { Body, Controller, ForbiddenException, Get, HttpCode, HttpStatus, Inject, Optional, Post, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../decorators/auth.decorator';
import type { AuthContext } from '../../interfaces/auth-context.interface';
import type { SvcModuleOptions } from '../../interfaces/svc-module-options.interface';
import { isProduction } from '../../node-env';
import { ApiErrorResponses } from '../../swagger/api-crud.decorators';
import { MODULE_OPTIONS_TOKEN } from '../../svc.module-definition';
import { sessionOf } from '../auth-context';
import { type CookieResponse, setSessionCookie } from '../cookies/session-cookie';
import { TokenPairDto } from '../login/auth.dto';
import { SvcAuthService } from '../login/auth.service';
import { SvcAuthGuard } from '../guards/auth.guard';
import type { TokenPair } from '../tokens/token.service';
import { SvcOrganizationSwitchThrottle } from './organization-switch-throttle';
import { OrganizationChoiceDto, SwitchOrganizationDto } from './organizations.dto';
import { type OrganizationChoice, SvcOrganizationsService } from './organizations.service';

/**
 * `GET /api/auth/organizations` and `POST /api/auth/switch-organization`, registered with login: a user of
 * several organizations sees them all and moves between them without typing the password again.
 */
@ApiTags('auth')
@ApiBearerAuth()
@UseGuards(SvcAuthGuard)
@Controller('api/auth')
export class SvcOrganizationsController {
  private readonly secureCookies: boolean;

  constructor(
    private readonly organizations: SvcOrganizationsService,
    private readonly auth: SvcAuthService,
    private readonly throttle: SvcOrganizationSwitchThrottle,
    @Optional() @Inject(MODULE_OPTIONS_TOKEN) options?: SvcModuleOptions,
  ) {
    this.secureCookies = isProduction(options?.env ?? process.env);
  }

  @Get('organizations')
  @ApiOperation({ summary: "The caller's organizations (their memberships, in every organization), the current one marked" })
  @ApiOkResponse({ type: [OrganizationChoiceDto] })
  @ApiErrorResponses(401)
  organizationsOf(@Auth() auth: AuthContext): Promise<OrganizationChoice[]> {
    return this.organizations.organizationsOf(auth);
  }

  @Post('switch-organization')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'A new token pair in another organization of the caller, in the same session (as a login with X-Organization-Id)',
  })
  @ApiOkResponse({ type: TokenPairDto })
  @ApiErrorResponses(400, 401, 403, 429)
  async switchOrganization(
    @Auth() auth: AuthContext,
    @Body() body: SwitchOrganizationDto,
    @Res({ passthrough: true }) response: CookieResponse,
  ): Promise<TokenPair> {
    // Only a user's own token moves: an API key is bound to its organization.
    if (auth.via !== 'jwt' || auth.userId === null) {
      throw new ForbiddenException('Only a user token can switch organization: an API key is bound to its own');
    }
    const session = sessionOf(auth);
    await this.throttle.count(auth.userId, session);
    const pair = await this.auth.switchOrganization(auth.userId, session, body.organizationId.trim());
    if (body.cookie === true) setSessionCookie(response, pair.accessToken, pair.expiresIn, this.secureCookies);
    return pair;
  }
}
