import { Module } from '@nestjs/common';
import { NoteModuleBase } from '../../autogen/notes/note.module.base';
import { NoteServiceBase } from '../../autogen/notes/note.service.base';
import { NoteController } from './note.controller';
import { NoteService } from './note.service';

/**
 * The module of Note. This file is yours: `svc generate` created it once and never changes it.
 * NoteModuleBase brings the generated side (the repository); your service is registered under
 * NoteServiceBase too, which the generated routes inject, so your overrides run. Import here
 * the modules of other services yours needs.
 */
@Module({
  imports: [NoteModuleBase],
  controllers: [NoteController],
  providers: [NoteService, { provide: NoteServiceBase, useExisting: NoteService }],
  exports: [NoteService, NoteServiceBase],
})
export class NoteModule {}
