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
    refuseUnsafeShapes(value);
    return super.transform(value, metadata);
  }
}

/** Deeper bodies are refused before class-transformer, whose recursion would overflow the stack. */
export const MAX_BODY_DEPTH = 64;

/** Keys class-transformer drops silently; refused like any other unknown property. */
const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Walks the body without recursion: too deep, or an own `__proto__`/`constructor` key, answers 400. */
function refuseUnsafeShapes(body: unknown): void {
  const pending: { value: unknown; depth: number; path: string }[] = [{ value: body, depth: 0, path: '' }];
  while (pending.length > 0) {
    const { value, depth, path } = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      throw new BadRequestException(`Request body is nested deeper than ${MAX_BODY_DEPTH} levels`);
    }
    for (const key of Object.keys(value)) {
      const field = path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.includes(key)) {
        throw new BadRequestException({
          statusCode: 400,
          message: `Validation failed: property ${field} should not exist`,
          error: 'Bad Request',
          errors: [{ field, message: `property ${key} should not exist` }],
        });
      }
      pending.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, path: field });
    }
  }
}
