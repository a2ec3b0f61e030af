import { Controller } from '@nestjs/common';
import { NoteControllerBase } from '../../autogen/notes/note.controller.base';

/**
 * The routes of /notes: the generated ones are inherited from NoteControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('notes')
export class NoteController extends NoteControllerBase {}
