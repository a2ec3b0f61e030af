import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../decorators/auth.decorator';
import { Public } from '../../decorators/public.decorator';
import type { AuthContext } from '../../interfaces/auth-context.interface';
import { ApiErrorResponses } from '../../swagger/api-crud.decorators';
import { SvcAuthGuard } from '../guards/auth.guard';
import { AcceptInvitationDto, CreatedInvitationDto, CreateInvitationDto, InvitationDto } from './invitation.dto';
import { type CreatedInvitation, SvcInvitationService } from './invitation.service';
import type { InvitationInfo } from './invitation.store';
import { SvcOptionalAuthGuard } from '../guards/optional-auth.guard';

/**
 * `/api/auth/invitations`: an administrator (`auth.adminRoles`) invites an e-mail address to their
 * organization, lists and revokes the pending invitations; the invited person accepts.
 */
@ApiTags('auth')
@ApiBearerAuth()
@Controller('api/auth/invitations')
export class SvcInvitationController {
  constructor(private readonly invitations: SvcInvitationService) {}

  @Post()
  @UseGuards(SvcAuthGuard)
  @ApiOperation({ summary: 'Invite an e-mail address to your organization (auth.adminRoles); the token is shown once' })
  @ApiCreatedResponse({ type: CreatedInvitationDto })
  @ApiErrorResponses(400, 401, 403)
  async create(@Auth() auth: AuthContext, @Body() body: CreateInvitationDto): Promise<CreatedInvitation> {
    return this.invitations.create(auth, body.email, body.role);
  }

  @Get()
  @UseGuards(SvcAuthGuard)
  @ApiOperation({ summary: "Your organization's pending invitations (auth.adminRoles)" })
  @ApiOkResponse({ type: [InvitationDto] })
  @ApiErrorResponses(401, 403)
  async list(@Auth() auth: AuthContext): Promise<InvitationInfo[]> {
    return this.invitations.list(auth);
  }

  @Delete(':id')
  @UseGuards(SvcAuthGuard)
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Revoke a pending invitation of your organization (auth.adminRoles)' })
  @ApiNoContentResponse()
  @ApiErrorResponses(401, 403, 404)
  async revoke(@Auth() auth: AuthContext, @Param('id') id: string): Promise<void> {
    await this.invitations.revoke(auth, id);
  }

  @Post('accept')
  @Public()
  @UseGuards(SvcOptionalAuthGuard)
  @ApiOperation({
    summary: 'Accept an invitation: logged in as the invited e-mail with {token}, or with {token, password} to create the account',
  })
  @ApiCreatedResponse({ description: 'The membership created' })
  @ApiErrorResponses(400, 401, 403, 404, 409)
  async accept(@Auth() auth: AuthContext | null, @Body() body: AcceptInvitationDto): Promise<Record<string, unknown>> {
    return this.invitations.accept(auth, body.token, body.password);
  }
}
