import { JwtService } from '@nestjs/jwt';
import { JWT_ALGORITHM } from '../auth.constants';

/**
 * The one `JwtService` configuration of the service's tokens, for signing and verifying alike:
 * HS256 only (no `none`, no RS/HS confusion) and expiry enforced.
 */
export function hs256JwtService(secret: string): JwtService {
  return new JwtService({
    secret,
    signOptions: { algorithm: JWT_ALGORITHM },
    verifyOptions: { algorithms: [JWT_ALGORITHM], ignoreExpiration: false },
  });
}
