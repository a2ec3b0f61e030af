import { Module } from '@nestjs/common';
import { SvcGuardsModule } from '@svc/nest';

/**
 * The auth guard and the scope guard, not enabled globally: use
 * `@UseGuards(SvcAuthGuard, ScopeGuard)` on a controller or route, or set `auth.globalGuards`
 * in .svcrc and regenerate. Tenant scope is enforced by the services either way.
 */
@Module({ imports: [SvcGuardsModule.forRoot({ global: false })] })
export class GuardsModule {}
