import { type ExecutionContext, Injectable } from '@nestjs/common';
import { SvcAuthGuard } from './auth.guard';
import { extractCredential } from '../credentials';

/**
 * `SvcAuthGuard` for a route that also serves callers without a credential (marked `@Public()`, so
 * a global `SvcAuthGuard` lets it through): a request with a credential is authenticated as
 * everywhere (a bad one is refused), one without gets `request.auth = null`.
 */
@Injectable()
export class SvcOptionalAuthGuard extends SvcAuthGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const auth = this.model.auth;
    const request = context.switchToHttp().getRequest<{ auth?: unknown; headers: Record<string, unknown> }>();
    if (!auth || !extractCredential(request as never, auth.apiKeyPrefix)) {
      request.auth = null;
      return true;
    }
    return super.canActivate(context);
  }

  protected override isPublic(): boolean {
    return false;
  }
}
