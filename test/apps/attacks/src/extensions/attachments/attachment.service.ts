import { Injectable } from '@nestjs/common';
import { AttachmentServiceBase } from '../../autogen/attachments/attachment.service.base';

/**
 * The service of Attachment, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class AttachmentService extends AttachmentServiceBase {}
