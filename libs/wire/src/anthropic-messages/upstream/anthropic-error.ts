import { RelayError, upstreamError } from '../../errors/relay-error';
import type { UpstreamFailure } from '../../hub/upstream-adapter';
import { rejectedCredentials } from '../../errors/key-rejection';
import { redactUpstreamError } from '../../errors/redact-upstream-error';
import { AnthropicErrorBodySchema, type AnthropicErrorObject } from '../anthropic-api';

/** The HTTP status Anthropic documents for each error type (used for errors sent inside a stream). */
const STATUS_BY_ERROR_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

function parseErrorBody(text: string): AnthropicErrorObject | undefined {
  try {
    const parsed = AnthropicErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An Anthropic failure → SPEC §9, and whether another channel may succeed:
 * - 401/403 (key rejected, no access): a retryable 502 that disables the key (see key-rejection.ts);
 *   402 (account out of credit): a retryable 502 counted against the channel. Neither message
 *   repeats the upstream's (it may quote the key);
 * - 408, 429 (`rate_limit_error`), 5xx and 529 (`overloaded_error`): a retryable 502
 *   `upstream_error` whose code is Anthropic's error type;
 * - 413: `request_too_large`; 404 (`not_found_error`, usually an unknown model): 404;
 *   400 and other 4xx: the caller's request, kept with Anthropic's (redacted) message.
 */
function mapAnthropicError(
  status: number,
  error: AnthropicErrorObject | undefined,
  secrets: readonly string[],
): UpstreamFailure {
  const failure = mapStatus(status, error);
  return { ...failure, error: redactUpstreamError(failure.error, secrets) };
}

function mapStatus(status: number, error: AnthropicErrorObject | undefined): UpstreamFailure {
  const message = error?.message ?? '';
  if (status === 401 || status === 403) return rejectedCredentials(status, `${message} ${error?.type ?? ''}`);
  if (status === 402) {
    return {
      error: upstreamError(
        `The upstream provider refused the channel's account (status ${status}).`,
        'upstream_billing_failed',
      ),
      retryable: true,
      channelFault: true,
    };
  }
  if (status === 408 || status === 429 || status >= 500) {
    const detail = message ? `: ${message}` : '';
    return {
      error: upstreamError(
        `The upstream provider failed with status ${status}${detail}`,
        error?.type ?? `upstream_${status}`,
      ),
      retryable: true,
      channelFault: true,
    };
  }
  const fallback = `The upstream provider rejected the request with status ${status}.`;
  const code = status === 413 ? 'request_too_large' : status === 404 && /model/i.test(message) ? 'model_not_found' : null;
  return {
    error: new RelayError({ status, type: 'invalid_request_error', code, message: message || fallback }),
    retryable: false,
    channelFault: false,
  };
}

/** A non-2xx answer: `{"type":"error","error":{"type","message"}}`, or anything else. */
export function mapAnthropicErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure {
  return mapAnthropicError(status, parseErrorBody(text), secrets);
}

/** An `error` event inside a stream (e.g. `overloaded_error` after the answer started). */
export function mapAnthropicStreamError(error: AnthropicErrorObject, secrets: readonly string[]): RelayError {
  return mapAnthropicError(STATUS_BY_ERROR_TYPE[error.type] ?? 500, error, secrets).error;
}
