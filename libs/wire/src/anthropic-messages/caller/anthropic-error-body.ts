import type { RelayError } from '../../errors/relay-error';

/** Anthropic's error types (https://docs.anthropic.com/en/api/errors) and their statuses. */
export type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'timeout_error'
  | 'overloaded_error';

export interface AnthropicErrorAnswer {
  status: number;
  body: { type: 'error'; error: { type: AnthropicErrorType; message: string }; request_id?: string };
}

/**
 * The codes an upstream failure carries when its provider was overloaded: Anthropic's
 * `overloaded_error`, Google's 503 `UNAVAILABLE` ("The model is overloaded", documented as
 * "temporarily overloaded or down": https://ai.google.dev/gemini-api/docs/troubleshooting), and
 * a bare 503 or 529 from any provider. The relay sends them on as a 502; Anthropic's clients
 * back off on a 529.
 */
const OVERLOADED_CODES = new Set(['overloaded_error', 'UNAVAILABLE', 'upstream_503', 'upstream_529']);

/**
 * A relay error as Anthropic would say it, status and type. The relay's own reasons map onto
 * Anthropic's: an exhausted quota is a 402 `billing_error` (not a 429 a client would retry), no
 * channel available or an upstream overloaded is a 529 `overloaded_error`, an upstream failure a
 * 5xx `api_error`, a timeout a `timeout_error`.
 */
export function toAnthropicError(error: RelayError, requestId?: string): AnthropicErrorAnswer {
  const [status, type] = statusAndType(error);
  return {
    status,
    body: { type: 'error', error: { type, message: error.message }, ...(requestId ? { request_id: requestId } : {}) },
  };
}

function statusAndType(error: RelayError): [number, AnthropicErrorType] {
  const { status } = error;
  if (error.type === 'insufficient_quota') return [402, 'billing_error'];
  if ((error.code !== null && OVERLOADED_CODES.has(error.code)) || status === 503 || status === 529) return [529, 'overloaded_error'];
  switch (status) {
    case 401:
      return [401, 'authentication_error'];
    case 402:
      return [402, 'billing_error'];
    case 403:
      return [403, 'permission_error'];
    case 404:
      return [404, 'not_found_error'];
    case 413:
      return [413, 'request_too_large'];
    case 429:
      return [429, 'rate_limit_error'];
    case 408:
    case 504:
      return [status, 'timeout_error'];
    default:
      return status >= 500 ? [status, 'api_error'] : [status, 'invalid_request_error'];
  }
}
