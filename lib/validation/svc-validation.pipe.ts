import { type ArgumentMetadata, BadRequestException, Injectable, ValidationPipe } from '@nestjs/common';
import { flattenValidationErrors } from './validation-errors';

/**
 * Body validation for generated DTOs: unknown properties are refused (so `id`,
 * timestamps and scope fields cannot be set through the body), types are
 * converted, and failures answer 400 with `errors: [{ field, message }]`.
 * Route params and query strings are left to their own pipes and parser.
 */
@Injectable()
export class SvcValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      validateCustomDecorators: false,
      stopAtFirstError: false,
      exceptionFactory: (errors) => {
        const fieldErrors = flattenValidationErrors(errors);
        const summary = fieldErrors.map((error) => error.message).join('; ');
        return new BadRequestException({
          statusCode: 400,
          message: `Validation failed: ${summary}`,
          error: 'Bad Request',
          errors: fieldErrors,
        });
      },
    });
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'body') return Promise.resolve(value);
    return super.transform(value, metadata);
  }
}
