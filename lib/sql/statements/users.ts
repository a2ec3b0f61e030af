import type { ColumnModel, EntityModel } from '../../schema/model';
import type { Statement } from '../statement';

/**
 * One row of the user entity from the command line (`svc users create`), which runs without the
 * application's TypeORM entities: identifiers from the service model, escaped by the driver, every value
 * bound. Returns the new row's primary key as `id`.
 */
export function insertUser(escape: (identifier: string) => string, user: EntityModel, values: ReadonlyMap<ColumnModel, unknown>): Statement {
  const primary = user.columns.find((candidate) => candidate.kind === 'primary');
  const columns = [...values.keys()];
  return {
    text:
      `INSERT INTO ${escape(user.tableName)} (${columns.map((column) => escape(column.name)).join(', ')}) ` +
      `VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')})` +
      (primary ? ` RETURNING ${escape(primary.name)} AS id` : ''),
    values: [...values.values()],
  };
}
