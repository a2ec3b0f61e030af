import { Injectable } from '@nestjs/common';
import { PostServiceBase } from '../../autogen/posts/post.service.base';

/**
 * The service of Post, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class PostService extends PostServiceBase {}
