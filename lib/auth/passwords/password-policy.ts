import { BadRequestException } from '@nestjs/common';

/** Shortest password accepted when one is set (create, update, replace, bulk create). */
export const PASSWORD_MIN_LENGTH = 8;
/**
 * Longest password accepted anywhere, login included, in characters (Unicode code points).
 * Longer ones are refused with 400, never truncated.
 */
export const PASSWORD_MAX_LENGTH = 128;

/** Length in characters as a person counts them (code points, not UTF-16 units). */
export function passwordLength(password: string): number {
  let count = 0;
  for (const _ of password) count++;
  return count;
}

/** What is wrong with the length of a new password, or null. */
export function passwordLengthProblem(password: string, field = 'password'): string | null {
  const length = passwordLength(password);
  if (length > PASSWORD_MAX_LENGTH) return `${field} must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (length < PASSWORD_MIN_LENGTH) return `${field} must be at least ${PASSWORD_MIN_LENGTH} characters`;
  return null;
}

/**
 * Throws 400 in the validation envelope (`errors: [{ field, message }]`) when a new password is
 * too short or too long. For every route that sets a password.
 */
export function assertPasswordLength(password: string, field = 'password'): void {
  const problem = passwordLengthProblem(password, field);
  if (problem !== null) throw passwordLengthException(field, problem);
}

export function passwordLengthException(field: string, message: string): BadRequestException {
  return new BadRequestException({
    statusCode: 400,
    message: `Validation failed: ${message}`,
    error: 'Bad Request',
    errors: [{ field, message }],
  });
}
