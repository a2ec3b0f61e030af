import { Controller } from '@nestjs/common';
import { CategoryControllerBase } from '../../autogen/categories/category.controller.base';

/**
 * The routes of /categories: the generated ones are inherited from CategoryControllerBase. This
 * file is yours: `svc generate` created it once and never changes it. Add routes here (declare
 * each one's operation with `@CrudOperation()`), guards with `@UseGuards()`, and turn generated
 * routes off or guard one of them with `@CrudRoutes()`.
 */
@Controller('categories')
export class CategoryController extends CategoryControllerBase {}
