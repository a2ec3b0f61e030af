import { Module } from '@nestjs/common';
import { AssetModule } from './assets/asset.module';
import { MembershipModule } from './memberships/membership.module';
import { MemoModule } from './memos/memo.module';
import { OrganizationModule } from './organizations/organization.module';
import { ReadingModule } from './readings/reading.module';
import { UserModule } from './users/user.module';

/**
 * Your modules, which the app module imports. This file is yours: `svc generate` created it once,
 * and only adds the module of an entity new in .svcrc to `imports` (as `nest g resource` does).
 * Register your own controllers, providers and modules here.
 */
@Module({
  imports: [OrganizationModule, UserModule, MembershipModule, AssetModule, ReadingModule, MemoModule],
})
export class ExtensionsModule {}
