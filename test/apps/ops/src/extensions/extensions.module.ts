import { Module } from '@nestjs/common';
import { LoanItemModule } from './loan-items/loan-item.module';
import { NoteModule } from './notes/note.module';

/**
 * Your modules, which the app module imports. This file is yours: `svc generate` created it once,
 * and only adds the module of an entity new in .svcrc to `imports` (as `nest g resource` does).
 * Register your own controllers, providers and modules here.
 */
@Module({
  imports: [LoanItemModule, NoteModule],
})
export class ExtensionsModule {}
