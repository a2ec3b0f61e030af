import { Module } from '@nestjs/common';
import { AuthorModule } from './authors/author.module';
import { BookModule } from './books/book.module';
import { FlagModule } from './flags/flag.module';
import { LoanModule } from './loans/loan.module';
import { ReviewModule } from './reviews/review.module';

/**
 * Your modules, which the app module imports. This file is yours: `svc generate` created it once,
 * and only adds the module of an entity new in .svcrc to `imports` (as `nest g resource` does).
 * Register your own controllers, providers and modules here.
 */
@Module({
  imports: [AuthorModule, BookModule, LoanModule, ReviewModule, FlagModule],
})
export class ExtensionsModule {}
