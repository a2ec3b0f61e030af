import type { ValidationError } from 'class-validator';

/** One problem of a request body, as listed in the error envelope's `errors`. */
export interface FieldError {
  field: string;
  message: string;
}

/** Flattens class-validator errors into `{ field, message }` with paths like `bulk[2].title`. */
export function flattenValidationErrors(errors: readonly ValidationError[], parent = ''): FieldError[] {
  const result: FieldError[] = [];
  for (const error of errors) {
    const field = !parent ? error.property : /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : `${parent}.${error.property}`;
    for (const message of Object.values(error.constraints ?? {})) {
      const ownPrefix = `${error.property} `;
      result.push({ field, message: message.startsWith(ownPrefix) ? `${field} ${message.slice(ownPrefix.length)}` : message });
    }
    if (error.children?.length) result.push(...flattenValidationErrors(error.children, field));
  }
  return result;
}
