import type { ServerResponse } from 'node:http';
import { sendJson } from '../http-io';
import type { AnthropicErrorBody } from './anthropic-api';

export function anthropicError(type: string, message: string): AnthropicErrorBody {
  return { type: 'error', error: { type, message } };
}

export function sendAnthropicError(res: ServerResponse, status: number, body: AnthropicErrorBody): void {
  sendJson(res, status, body);
}

/** A 400 `invalid_request_error` with the API's message. */
export function invalidRequest(res: ServerResponse, message: string): void {
  sendAnthropicError(res, 400, anthropicError('invalid_request_error', message));
}

/** The error body the Messages API sends with `status` (what `status:N` faults play). */
export function anthropicErrorForStatus(status: number): AnthropicErrorBody {
  switch (status) {
    case 400:
      return anthropicError('invalid_request_error', 'messages: rejected by the simulator');
    case 401:
      return anthropicError('authentication_error', 'invalid x-api-key');
    case 403:
      return anthropicError('permission_error', 'Your API key does not have permission to use the specified resource.');
    case 404:
      return anthropicError('not_found_error', 'The requested resource could not be found.');
    case 413:
      return anthropicError('request_too_large', 'Request exceeds the maximum allowed number of bytes.');
    case 429:
      return anthropicError(
        'rate_limit_error',
        'This request would exceed the rate limit for your organization. Please try again later.',
      );
    case 529:
      return anthropicError('overloaded_error', 'Overloaded');
  }
  if (status >= 500) return anthropicError('api_error', 'Internal server error');
  return anthropicError('invalid_request_error', `The simulator answered ${status}.`);
}

/** What a `stream-error` fault sends mid-stream — and, not streaming, with status 529. */
export const anthropicOverloaded = anthropicError('overloaded_error', 'Overloaded');
