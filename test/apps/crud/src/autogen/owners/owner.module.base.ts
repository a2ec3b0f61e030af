import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Owner } from './owner.entity';

/** Generated module of Owner; OwnerModule (src/extensions/owners/owner.module.ts) imports it and registers your classes. */
@Module({
  imports: [TypeOrmModule.forFeature([Owner])],
  exports: [TypeOrmModule],
})
export class OwnerModuleBase {}
