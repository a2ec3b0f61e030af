import type { AuthModel, EntityModel } from '../../schema/model';
import { normalizeEmail } from './email';
import { hashPassword } from '../passwords/password';
import { passwordLengthException, passwordLengthProblem } from '../passwords/password-policy';

/** The field of `auth.userEntity` that login reads the e-mail from. */
export const LOGIN_EMAIL_FIELD = 'email';

/**
 * What every write of identity data goes through before it reaches SQL (generated routes, bulk
 * create and `CrudService` called from code): each `is_password` value is checked for length
 * (400, nothing written) then stored as a hash, never as given; the user entity's login e-mail
 * is stored normalized. Changes `values` in place.
 */
export async function prepareIdentityValues(
  entity: EntityModel,
  auth: AuthModel | null,
  values: Record<string, unknown>,
): Promise<void> {
  const passwords = entity.columns.filter((column) => column.field?.isPassword && typeof values[column.name] === 'string');
  for (const column of passwords) {
    const problem = passwordLengthProblem(values[column.name] as string, column.name);
    if (problem !== null) throw passwordLengthException(column.name, problem);
  }
  const email = values[LOGIN_EMAIL_FIELD];
  if (auth?.userEntity === entity.name && typeof email === 'string') values[LOGIN_EMAIL_FIELD] = normalizeEmail(email);
  for (const column of passwords) values[column.name] = await hashPassword(values[column.name] as string);
}
