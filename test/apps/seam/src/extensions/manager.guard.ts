import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import type { AuthContext } from '@svc/nest';

/** Lets through callers whose token carries the `manager` role. */
@Injectable()
export class ManagerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const auth = context.switchToHttp().getRequest<{ auth?: AuthContext | null }>().auth;
    if (auth?.roles?.includes('manager')) return true;
    throw new ForbiddenException('Managers only');
  }
}
