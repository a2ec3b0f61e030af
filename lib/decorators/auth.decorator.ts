import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthContext } from '../interfaces/auth-context.interface';

/**
 * The caller established by `SvcAuthGuard` (`request.auth`), or null on an open service or a
 * `@Public()` route. `@Auth('userId')` gives one property.
 */
export const Auth = createParamDecorator((property: keyof AuthContext | undefined, context: ExecutionContext): unknown => {
  const auth = context.switchToHttp().getRequest<{ auth?: AuthContext | null }>().auth ?? null;
  return property === undefined ? auth : (auth?.[property] ?? null);
});
