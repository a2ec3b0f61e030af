import { Body, Controller, HttpCode, HttpStatus, Inject, Optional, Param, Post, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../decorators/auth.decorator';
import type { AuthContext } from '../../interfaces/auth-context.interface';
import type { SvcModuleOptions } from '../../interfaces/svc-module-options.interface';
import { isProduction } from '../../node-env';
import { MODULE_OPTIONS_TOKEN } from '../../svc.module-definition';
import { ApiErrorResponses } from '../../swagger/api-crud.decorators';
import { ChangeEmailDto, ChangePasswordDto, LogoutDto, ResetPasswordDto } from './account.dto';
import { SvcAccountService } from './account.service';
import { SvcAuthGuard } from '../guards/auth.guard';
import { SvcCurrentPasswordThrottleInterceptor } from '../login-throttle/login-throttle.interceptor';
import { clearSessionCookie, type CookieResponse } from '../cookies/session-cookie';

/**
 * `POST /api/auth/password`, `/api/auth/users/:id/password` and `/api/auth/logout`, registered with
 * login and refresh. They always need a credential, whether or not the guards are global.
 */
@ApiTags('auth')
@ApiBearerAuth()
@UseGuards(SvcAuthGuard)
@Controller('api/auth')
export class SvcAccountController {
  private readonly secureCookies: boolean;

  constructor(
    private readonly account: SvcAccountService,
    @Optional() @Inject(MODULE_OPTIONS_TOKEN) options?: SvcModuleOptions,
  ) {
    this.secureCookies = isProduction(options?.env ?? process.env);
  }

  @Post('password')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: "Change the caller's password; every other session of the user ends" })
  @ApiNoContentResponse()
  @ApiErrorResponses(400, 401, 403, 429)
  // Wrong current passwords count as failed logins of the client and of the account: no brute force through a stolen token.
  @UseInterceptors(SvcCurrentPasswordThrottleInterceptor)
  async changePassword(@Auth() auth: AuthContext, @Body() body: ChangePasswordDto): Promise<void> {
    await this.account.changePassword(auth, body.currentPassword, body.newPassword);
  }

  @Post('email')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: "Change the caller's login e-mail (needs currentPassword); every other session of the user ends" })
  @ApiNoContentResponse()
  @ApiErrorResponses(400, 401, 403, 409, 429)
  // Wrong current passwords count as failed logins of the client and of the account, as on POST /api/auth/password.
  @UseInterceptors(SvcCurrentPasswordThrottleInterceptor)
  async changeEmail(@Auth() auth: AuthContext, @Body() body: ChangeEmailDto): Promise<void> {
    await this.account.changeEmail(auth, body.currentPassword, body.newEmail);
  }

  @Post('users/:id/password')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Reset the password of a user of your organization (auth.adminRoles); every session of that user ends' })
  @ApiNoContentResponse()
  @ApiErrorResponses(400, 401, 403, 404)
  async resetPassword(@Auth() auth: AuthContext, @Param('id') id: string, @Body() body: ResetPasswordDto): Promise<void> {
    await this.account.resetPassword(auth, id, body.newPassword);
  }

  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'End the current session (and the refresh token given, if any); clears the svc_session cookie' })
  @ApiNoContentResponse()
  @ApiErrorResponses(400, 401)
  async logout(
    @Auth() auth: AuthContext,
    @Body() body: LogoutDto,
    @Res({ passthrough: true }) response: CookieResponse,
  ): Promise<void> {
    await this.account.logout(auth, body?.refreshToken);
    clearSessionCookie(response, this.secureCookies);
  }
}
