import { Controller } from '@nestjs/common';
import { AssetControllerBase } from '../../autogen/assets/asset.controller.base';

/**
 * The routes of /assets: the generated ones are inherited from AssetControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('assets')
export class AssetController extends AssetControllerBase {}
