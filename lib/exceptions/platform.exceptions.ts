import { ForbiddenException, HttpException, HttpStatus } from '@nestjs/common';

/**
 * Platform errors of the spec ("Entitlement and limit errors", "Quota error"). Each is an
 * `HttpException` with an object response, so `SvcExceptionFilter` renders it in the
 * envelope `{ statusCode, message, error }` and passes the extra keys through unchanged.
 */

/** Default `upgradeUrl` of the limit and entitlement errors: a relative path of the platform. */
export const DEFAULT_UPGRADE_URL = '/settings/billing';

export interface LimitDetails {
  /** Plan tier of the workspace, e.g. `free`. */
  tier: string;
  /** The plan's limit (`maxServices`, `maxTeamMembers`). */
  limit: number;
  /** Current usage counted against it. */
  current: number;
  /** Where to upgrade, a relative path. Default {@link DEFAULT_UPGRADE_URL}. */
  upgradeUrl?: string;
  /** Overrides the default message. */
  message?: string;
}

/** 403 `SERVICE_LIMIT_REACHED`: creating a service past the plan's `maxServices`. */
export class ServiceLimitReachedException extends ForbiddenException {
  constructor({ tier, limit, current, upgradeUrl = DEFAULT_UPGRADE_URL, message }: LimitDetails) {
    super({
      statusCode: HttpStatus.FORBIDDEN,
      message: message ?? `Service limit reached: the ${tier} plan allows ${limit} service${limit === 1 ? '' : 's'}`,
      error: 'Forbidden',
      code: 'SERVICE_LIMIT_REACHED',
      tier,
      limit,
      current,
      upgradeUrl,
    });
  }
}

/** 403 `TEAM_MEMBER_LIMIT_REACHED`: inviting past `maxTeamMembers` (seats = members + pending invites). */
export class TeamMemberLimitReachedException extends ForbiddenException {
  constructor({ tier, limit, current, upgradeUrl = DEFAULT_UPGRADE_URL, message }: LimitDetails) {
    super({
      statusCode: HttpStatus.FORBIDDEN,
      message: message ?? `Team member limit reached: the ${tier} plan allows ${limit} seat${limit === 1 ? '' : 's'}`,
      error: 'Forbidden',
      code: 'TEAM_MEMBER_LIMIT_REACHED',
      tier,
      limit,
      current,
      upgradeUrl,
    });
  }
}

export interface EntitlementDetails {
  /** The feature the tier lacks, e.g. `audit_logs`. */
  entitlement: string;
  currentTier: string;
  /** Default {@link DEFAULT_UPGRADE_URL}. */
  upgradeUrl?: string;
  message?: string;
}

/** 403 `ENTITLEMENT_REQUIRED`: a feature the current tier does not include. */
export class EntitlementRequiredException extends ForbiddenException {
  constructor({ entitlement, currentTier, upgradeUrl = DEFAULT_UPGRADE_URL, message }: EntitlementDetails) {
    super({
      statusCode: HttpStatus.FORBIDDEN,
      message: message ?? `The ${currentTier} plan does not include ${entitlement}`,
      error: 'Forbidden',
      code: 'ENTITLEMENT_REQUIRED',
      entitlement,
      currentTier,
      upgradeUrl,
    });
  }
}

/** 403 `WORKSPACE_NOT_FOUND`: the workspace context cannot be resolved. */
export class WorkspaceNotFoundException extends ForbiddenException {
  constructor(message = 'Workspace not found') {
    super({ statusCode: HttpStatus.FORBIDDEN, message, error: 'Forbidden', code: 'WORKSPACE_NOT_FOUND' });
  }
}

export interface QuotaUsage {
  tokensUsed: number;
  tokenLimit: number;
  /** Default: `tokensUsed / tokenLimit * 100`, rounded to two decimals. */
  percentage?: number;
}

/** 429: the AI token budget of the workspace is spent; checked before any work, so nothing partial happens. */
export class QuotaExceededException extends HttpException {
  constructor({ tokensUsed, tokenLimit, percentage }: QuotaUsage, message = 'AI token quota exceeded') {
    const computed = percentage ?? (tokenLimit > 0 ? Math.round((tokensUsed / tokenLimit) * 10000) / 100 : 100);
    super(
      {
        statusCode: HttpStatus.TOO_MANY_REQUESTS,
        message,
        error: 'Too Many Requests',
        usage: { tokensUsed, tokenLimit, percentage: computed },
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}
