import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { packRules, type PackRule } from '@casl/ability/extra';
import { Auth } from '../../decorators/auth.decorator';
import type { AuthContext } from '../../interfaces/auth-context.interface';
import { ApiErrorResponses } from '../../swagger/api-crud.decorators';
import type { SvcAbilityRule } from '../../scope/ability-rules';
import { SvcPermissions } from '../../scope/svc-permissions';
import { SvcAuthGuard } from '../guards/auth.guard';

/**
 * `GET /api/auth/permissions`: the caller's effective rules in CASL's packed form, so a front end
 * hides what the API would refuse (`createMongoAbility(unpackRules(body))`). Every entity appears,
 * those without `permissions` as plain `[action, subject]` grants (none under `permissionsDefault: "deny"`).
 */
@ApiTags('auth')
@ApiBearerAuth()
@UseGuards(SvcAuthGuard)
@Controller('api/auth')
export class SvcPermissionsController {
  constructor(private readonly permissions: SvcPermissions) {}

  @Get('permissions')
  @ApiOperation({
    summary: "The caller's permissions as CASL rules, packed (packRules of @casl/ability/extra)",
    description:
      'Each rule is `[action, subject, conditions?, inverted?, fields?]` (0 for an absent part): actions read, create, update, delete; ' +
      'subjects entity names; conditions in mongo-query syntax over fields as records carry them. ' +
      'Read them with `createMongoAbility(unpackRules(rules))`. Entities without permissions appear with every action granted ' +
      '(none under auth.permissionsDefault "deny").',
  })
  @ApiOkResponse({
    description: 'Packed CASL rules',
    schema: {
      type: 'array',
      items: { type: 'array', items: {} },
      example: [
        ['read', 'Task', { assigneeId: 101 }],
        ['delete', 'Task'],
      ],
    },
  })
  @ApiErrorResponses(401)
  permissionsOf(@Auth() auth: AuthContext): PackRule<SvcAbilityRule>[] {
    return packRules(this.permissions.rulesFor(auth));
  }
}
