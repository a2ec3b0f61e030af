import { Controller, Get } from '@nestjs/common';
import { Auth, type AuthContext } from '@svc/nest';

/** Who the guards think the caller is: the auth-attack tests check which credential won. */
@Controller('whoami')
export class WhoAmIController {
  @Get()
  whoami(@Auth() auth: AuthContext | null) {
    return { auth };
  }
}
