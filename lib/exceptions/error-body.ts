import { STATUS_CODES } from 'node:http';

/** The error envelope of every non-2xx answer. */
export interface ErrorBody {
  statusCode: number;
  message: string;
  /** The HTTP reason phrase. */
  error: string;
  /** Validation problems, one per field. */
  errors?: { field: string; message: string }[];
  [extra: string]: unknown;
}

export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export function errorBody(statusCode: number, message: string, extra: Record<string, unknown> = {}): ErrorBody {
  return { statusCode, message, error: reasonPhrase(statusCode), ...extra };
}
