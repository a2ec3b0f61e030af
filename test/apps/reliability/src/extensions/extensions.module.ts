import { Module } from '@nestjs/common';
import { ItemModule } from './items/item.module';
import { LedgerModule } from './ledgers/ledger.module';
import { OrgModule } from './orgs/org.module';
import { PartModule } from './parts/part.module';
import { TeamModule } from './teams/team.module';

/**
 * Your modules, which the app module imports. This file is yours: `svc generate` created it once,
 * and only adds the module of an entity new in .svcrc to `imports` (as `nest g resource` does).
 * Register your own controllers, providers and modules here.
 */
@Module({
  imports: [OrgModule, TeamModule, ItemModule, PartModule, LedgerModule],
})
export class ExtensionsModule {}
