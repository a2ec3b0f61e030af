/*
 * What the generated views ask react-admin's `canAccess` beyond the routes: whether the loaded record may be edited,
 * and which fields of the entity the user may read or write (a resource written `tasks.title`).
 */
import { type ReactElement, type ReactNode, useEffect } from 'react';
import {
  ShowButton,
  useAuthenticated,
  useCanAccess,
  useCanAccessResources,
  useLogoutIfAccessDenied,
  useRecordContext,
  useResourceContext,
  useResourceDefinition,
} from 'react-admin';

/** Whether the user may use one field of the resource in the action; undefined while the rules load. */
export type FieldAccess = ((field: string) => boolean) | undefined;

/**
 * The fields of the current resource the user may `action` (`list`/`show`: read, `edit`: update, `create`: create),
 * asked with the record of the context when there is one, so row conditions of field rules apply.
 */
export function useFieldAccess(action: string, fields: readonly string[]): FieldAccess {
  // The view waits for these answers before it renders react-admin's page, which is what checks the session: check
  // it here first, so an ended session goes to the login page instead of a page that waits for ever.
  useAuthenticated();
  const resource = useResourceContext() ?? '';
  const { canAccess, isPending, error } = useCanAccessResources({ action, resources: fields.map((field) => `${resource}.${field}`) });
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  useEffect(() => {
    if (error) void logoutIfAccessDenied(error);
  }, [error, logoutIfAccessDenied]);
  if (isPending || canAccess === undefined) return undefined;
  return (field: string) => canAccess[`${resource}.${field}`] === true;
}

export interface RecordAccessProps {
  readonly action: string;
  readonly children: ReactNode;
}

/**
 * Renders its children (the form) only once the record is loaded and the user may `action` it. react-admin checks the
 * edit route without the record, and a role whose update rule has a row condition may update some records only:
 * for the others the page says so instead of offering a form the API would refuse.
 */
export function RecordAccess({ action, children }: RecordAccessProps): ReactElement | null {
  const record = useRecordContext();
  const resource = useResourceContext() ?? '';
  const { hasShow } = useResourceDefinition();
  const { canAccess, isPending } = useCanAccess({ action, resource, record, enabled: record !== undefined });
  if (record === undefined || isPending) return null;
  if (canAccess) return <>{children}</>;
  return (
    <div role="alert" className="svc-record-refused" style={{ padding: 16 }}>
      <p style={{ margin: '0 0 8px' }}>You are not allowed to {action} this record: your role's rules do not reach it.</p>
      {hasShow ? <ShowButton record={record} /> : null}
    </div>
  );
}
