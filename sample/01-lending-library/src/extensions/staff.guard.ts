import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';

/** Member records are personal data: only requests sent with `X-Staff: yes` may reach them. */
@Injectable()
export class StaffGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    if (request.headers['x-staff'] === 'yes') return true;
    throw new ForbiddenException('Member records are for library staff (send X-Staff: yes)');
  }
}
