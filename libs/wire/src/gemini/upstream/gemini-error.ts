import { RelayError, upstreamError } from '../../errors/relay-error';
import { redactSecrets } from '../../errors/redact-secrets';
import { rejectedCredentials } from '../../errors/key-rejection';
import { redactUpstreamError } from '../../errors/redact-upstream-error';
import type { UpstreamFailure } from '../../hub/upstream-adapter';
import { GeminiErrorBodySchema, type GeminiError } from '../gemini-api';
import type { GeminiFinishReason } from './map-gemini-finish-reason';

/** The channel's own trouble (quota, outage): another channel may well succeed. */
const RETRYABLE = new Set(['RESOURCE_EXHAUSTED', 'UNAVAILABLE', 'INTERNAL', 'DEADLINE_EXCEEDED', 'UNKNOWN', 'ABORTED']);
const AUTH = new Set(['UNAUTHENTICATED', 'PERMISSION_DENIED']);
/** The shape of a Google API key, redacted even when it is not one of the channel's. */
const GOOGLE_API_KEY = /AIza[0-9A-Za-z_-]{35,}/g;

const redact = (message: string | undefined, secrets: readonly string[]): string =>
  redactSecrets(message ?? '', secrets).replace(GOOGLE_API_KEY, '[redacted]').trim();

/**
 * A Gemini non-2xx answer (`{error: {code, message, status}}`) → SPEC §9:
 * - RESOURCE_EXHAUSTED (429), UNAVAILABLE, INTERNAL … (5xx) → retryable 502 `upstream_error`
 *   whose code is Gemini's status;
 * - UNAUTHENTICATED, PERMISSION_DENIED (401/403) — and an invalid or expired key, which Gemini
 *   answers with 400 INVALID_ARGUMENT / API_KEY_INVALID — → retryable 502 that never repeats the key
 *   and disables it (see key-rejection.ts);
 * - INVALID_ARGUMENT, FAILED_PRECONDITION (400), NOT_FOUND (404) … → that status with Gemini's
 *   message (secrets redacted), not retryable: the request itself is at fault.
 */
export function mapGeminiErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure {
  const failure = mapStatus(status, parseGeminiError(text), secrets);
  return { ...failure, error: redactUpstreamError(failure.error, secrets) };
}

function mapStatus(status: number, error: GeminiError | undefined, secrets: readonly string[]): UpstreamFailure {
  const grpcStatus = error?.status;
  const message = redact(error?.message, secrets);

  if (status === 401 || status === 403 || (grpcStatus && AUTH.has(grpcStatus)) || isRejectedKey(error)) {
    return rejectedCredentials(isRejectedKey(error) ? 401 : grpcStatus === 'PERMISSION_DENIED' ? 403 : status, message);
  }
  if (status === 408 || status === 429 || status >= 500 || (grpcStatus && RETRYABLE.has(grpcStatus))) {
    const named = grpcStatus ? `${status} (${grpcStatus})` : `${status}`;
    return {
      error: upstreamError(
        `The upstream provider failed with status ${named}${message ? `: ${message}` : '.'}`,
        grpcStatus ?? `upstream_${status}`,
      ),
      retryable: true,
      channelFault: true,
    };
  }
  return {
    error: new RelayError({
      status: status >= 400 && status < 500 ? status : 400,
      type: 'invalid_request_error',
      code: grpcStatus ?? null,
      message: message || `The upstream provider rejected the request with status ${status}.`,
    }),
    retryable: false,
    channelFault: false,
  };
}

/** An error object sent inside a Gemini stream: the answer failed after it started. */
export function mapGeminiStreamError(error: GeminiError, secrets: readonly string[]): RelayError {
  const message = redact(error.message, secrets);
  const detail = message ? `: ${message}` : '.';
  return redactUpstreamError(
    upstreamError(`The upstream provider failed during the stream${detail}`, error.status ?? 'upstream_error'),
    secrets,
  );
}

/** A candidate that ended without a usable answer (e.g. a malformed function call). */
export function geminiFinishFailure(
  reason: GeminiFinishReason,
  finishMessage: string | undefined,
  secrets: readonly string[],
): RelayError {
  const detail = finishMessage ? `: ${finishMessage}` : '.';
  return redactUpstreamError(upstreamError(`The Gemini model stopped without an answer (${reason})${detail}`, reason), secrets);
}

function parseGeminiError(text: string): GeminiError | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  // A few Google front ends wrap the status in a one-element array.
  const parsed = GeminiErrorBodySchema.safeParse(Array.isArray(json) ? json[0] : json);
  return parsed.success ? parsed.data.error : undefined;
}

function isRejectedKey(error: GeminiError | undefined): boolean {
  if (!error) return false;
  const reasonIsKey = (error.details ?? []).some((detail) => detail['reason'] === 'API_KEY_INVALID');
  return reasonIsKey || /API key (not valid|expired)/i.test(error.message ?? '');
}
