import { Injectable } from '@nestjs/common';
import { NoteServiceBase } from '../../autogen/notes/note.service.base';

/**
 * The service of Note, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class NoteService extends NoteServiceBase {}
