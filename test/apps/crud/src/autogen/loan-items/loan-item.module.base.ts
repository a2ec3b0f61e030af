import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoanItem } from './loan-item.entity';

/** Generated module of LoanItem; LoanItemModule (src/extensions/loan-items/loan-item.module.ts) imports it and registers your classes. */
@Module({
  imports: [TypeOrmModule.forFeature([LoanItem])],
  exports: [TypeOrmModule],
})
export class LoanItemModuleBase {}
