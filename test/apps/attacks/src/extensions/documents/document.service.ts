import { Injectable } from '@nestjs/common';
import { DocumentServiceBase } from '../../autogen/documents/document.service.base';

/**
 * The service of Document, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class DocumentService extends DocumentServiceBase {}
