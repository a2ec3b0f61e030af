import { Injectable } from '@nestjs/common';
import { AssetServiceBase } from '../../autogen/assets/asset.service.base';

/**
 * The service of Asset, used by the generated routes. This file is yours: `svc generate`
 * created it once and never changes it. Override hooks of CrudService here (prepareCreate,
 * prepareUpdate, conditions); the generated routes run them.
 */
@Injectable()
export class AssetService extends AssetServiceBase {}
