/** Conventions of the identity entities named in `auth`, shared by the checks and the normalizer. */
import type { RawEntity, RawSvcrc } from './raw-svcrc.types';

/** Field names taken as the user's password when no field says `is_password` (the spec's own user entities). */
export const CONVENTIONAL_PASSWORD_FIELDS: readonly string[] = ['password', 'passwordHash'];

/** The primary key: `scopeBy: "id"` scopes an entity by its own id (the organization table). */
export const PRIMARY_KEY = 'id';

/**
 * The field of the user entity taken as its password without `is_password`: the first text field named
 * `password` or `passwordHash`; undefined when a field says `is_password` or none is named so.
 */
export function conventionalPasswordField(entity: RawEntity): string | undefined {
  if (entity.fields.some((field) => field.is_password === true)) return undefined;
  const field = entity.fields.find(
    (candidate) =>
      candidate.name !== undefined &&
      CONVENTIONAL_PASSWORD_FIELDS.includes(candidate.name) &&
      candidate.is_password !== false &&
      (candidate.type === undefined || candidate.type === 'text') &&
      candidate.is_email !== true,
  );
  return field?.name;
}

/** Whether `entity` is the user entity of `raw.auth`. */
export function isUserEntity(raw: RawSvcrc, entity: RawEntity): boolean {
  return entity.name !== undefined && raw.auth?.userEntity === entity.name;
}
