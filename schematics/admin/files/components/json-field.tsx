/* A JSON value shown as compact text (lists) or indented (show pages). */
import type { ReactElement } from 'react';
import { useFieldValue } from 'react-admin';

export interface JsonFieldProps {
  readonly source: string;
  readonly label?: string;
  readonly indent?: boolean;
}

export function JsonField({ source, indent = false }: JsonFieldProps): ReactElement {
  const value: unknown = useFieldValue({ source });
  if (value === undefined || value === null) return <span />;
  const text = JSON.stringify(value, null, indent ? 2 : undefined);
  return indent ? <pre style={{ margin: 0, fontSize: '0.85em' }}>{text}</pre> : <code>{text.length > 80 ? `${text.slice(0, 79)}…` : text}</code>;
}
