import type { ErrorResponse } from '@chat-relay/contract';

export function openAiError(
  message: string,
  type: string,
  param: string | null = null,
  code: string | null = null,
): ErrorResponse {
  return { error: { message, type, param, code } };
}

/** The error body an OpenAI upstream sends with `status` (what `status:N` faults play). */
export function errorForStatus(status: number): ErrorResponse {
  if (status === 400) {
    return openAiError("Invalid 'messages': rejected by the simulator.", 'invalid_request_error', 'messages');
  }
  if (status === 401) {
    return openAiError('Incorrect API key provided.', 'invalid_request_error', null, 'invalid_api_key');
  }
  if (status === 403) return openAiError('You are not allowed to access this resource.', 'permission_error');
  if (status === 404) {
    return openAiError('The model does not exist or you do not have access to it.', 'invalid_request_error', 'model', 'model_not_found');
  }
  if (status === 429) {
    return openAiError(
      'Rate limit reached for requests. Please try again later.',
      'rate_limit_error',
      null,
      'rate_limit_exceeded',
    );
  }
  if (status >= 500) {
    return openAiError('The server had an error while processing your request. Sorry about that!', 'server_error');
  }
  return openAiError(`The simulator answered ${status}.`, 'invalid_request_error');
}
