import { GEMINI_ERROR_STATUS, type GeminiErrorResponse, type GeminiErrorStatus } from '@chat-relay/contract';
import type { RelayError } from '../../errors/relay-error';

export interface GeminiErrorAnswer {
  status: number;
  body: GeminiErrorResponse;
}

const isGeminiStatus = (code: string | null): code is GeminiErrorStatus => code !== null && code in GEMINI_ERROR_STATUS;

/** The canonical code Google answers an HTTP status with; other statuses by their class. */
function statusNameOf(status: number): GeminiErrorStatus {
  switch (status) {
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'ABORTED';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 499:
      return 'CANCELLED';
    case 501:
      return 'UNIMPLEMENTED';
    case 502:
    case 503:
      return 'UNAVAILABLE';
    case 408:
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      return status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
  }
}

/**
 * A relay error as Google would say it: `{error: {code, message, status, details}}`, `code` the
 * HTTP status. Documented mapping: the status keeps its HTTP code and takes Google's canonical
 * name for it (400 INVALID_ARGUMENT, 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404 NOT_FOUND,
 * 429 RESOURCE_EXHAUSTED, 502/503 UNAVAILABLE, 504 DEADLINE_EXCEEDED, other 5xx INTERNAL); a
 * caller's error a Gemini channel answered keeps Gemini's own name (FAILED_PRECONDITION …); an
 * exhausted quota is 429 RESOURCE_EXHAUSTED, as Google reports its own quotas. `details` carries
 * a google.rpc.ErrorInfo with the relay's code as `reason`, and a google.rpc.BadRequest naming
 * the field when there is one.
 */
export function toGeminiError(error: RelayError): GeminiErrorAnswer {
  const status = error.type === 'insufficient_quota' ? 429 : error.status;
  const name = status < 500 && isGeminiStatus(error.code) && GEMINI_ERROR_STATUS[error.code] === status ? error.code : statusNameOf(status);
  const details: Array<Record<string, unknown>> = [];
  if (error.code !== null && !isGeminiStatus(error.code)) {
    details.push({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: error.code, domain: 'chat-relay' });
  }
  if (error.param) {
    details.push({ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: error.param, description: error.message }] });
  }
  return { status, body: { error: { code: status, message: error.message, status: name, ...(details.length > 0 ? { details } : {}) } } };
}
