import { Controller, type DynamicModule, Get, Module } from '@nestjs/common';
import { Public, SvcGuardsModule, SvcModule, type SvcrcV2 } from '@svc/nest';
import { AutogenModule } from './src/autogen/autogen.module';
import { ExtensionsModule } from './src/extensions/extensions.module';
import { svcSchema } from './src/autogen/svc.schema';
import { TENANCY_JWT_SECRET } from './src/app.module';

/** Requests to `/held` and `/held/public` wait here until the test opens the gate. */
export class Gate {
  private waiting: (() => void)[] = [];
  /** Requests inside the handler, waiting for `open()`. */
  get held(): number {
    return this.waiting.length;
  }
  wait(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  open(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}

export const gate = new Gate();

/** A route that holds its request (and its turn) until the gate opens: authenticated, and one for anyone. */
@Controller('held')
class HeldController {
  @Get()
  async held() {
    await gate.wait();
    return { released: true };
  }

  @Public()
  @Get('public')
  async heldPublic() {
    await gate.wait();
    return { released: true };
  }
}

/** The `.svcrc` keys this app sets besides the tenancy app's own. */
export interface LimitSettings {
  readonly statementTimeoutMs?: number;
  readonly parallelWorkersPerStatement?: number;
  readonly concurrency?: { readonly perCredential?: number; readonly perOrganization?: number; readonly maxWaitMs?: number };
}

/** The tenancy app with both guards global, `database.statementTimeoutMs` and `api.concurrency` as given, and `/held`. */
export function limitsAppModule(settings: LimitSettings = {}) {
  return (env: Record<string, string>): DynamicModule => {
    @Module({})
    class LimitsAppModule {}
    const schema: SvcrcV2 = {
      ...svcSchema,
      api: { ...svcSchema.api, ...(settings.concurrency ? { concurrency: settings.concurrency } : {}) },
      database: {
        ...svcSchema.database,
        ...(settings.statementTimeoutMs !== undefined ? { statementTimeoutMs: settings.statementTimeoutMs } : {}),
        ...(settings.parallelWorkersPerStatement !== undefined ? { parallelWorkersPerStatement: settings.parallelWorkersPerStatement } : {}),
      },
    };
    return {
      module: LimitsAppModule,
      imports: [
        SvcModule.forRoot({ schema, env: { ...env, JWT_SECRET: TENANCY_JWT_SECRET } }),
        AutogenModule,
        ExtensionsModule,
        SvcGuardsModule.forRoot({ global: true }),
      ],
      controllers: [HeldController],
    };
  };
}
