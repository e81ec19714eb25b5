import type { ServerResponse } from 'node:http';
import type { ErrorDialect } from '../endpoints/endpoint-answer';
import { sendJson } from '../http-io';

/** new-api's TaskError as its Suno-style routes write it: `{code, message, data: null}`. */
export function sunoError(code: string, message: string): { code: string; message: string; data: null } {
  return { code, message, data: null };
}

export function sendSunoError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, sunoError(code, message));
}

function codeForStatus(status: number): string {
  if (status === 401) return 'invalid_api_key';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'task_not_exist';
  if (status === 429) return 'too_many_requests';
  if (status >= 500) return 'internal_error';
  return 'bad_request';
}

/** How status faults read on the Suno routes. */
export const sunoDialect: ErrorDialect = {
  forStatus: (status) => ({ status, body: sunoError(codeForStatus(status), `The simulator answered ${status}.`) }),
  unstreamed: { status: 500, body: sunoError('internal_error', 'The simulator answered 500.') },
};
