import { RelayError, upstreamError } from '../../errors/relay-error';
import type { UpstreamFailure } from '../../hub/upstream-adapter';
import { OpenAiErrorBodySchema } from '../openai-api';
import { rejectedCredentials } from '../../errors/key-rejection';
import { redactUpstreamError } from '../../errors/redact-upstream-error';

/** What an upstream's error body said, as far as it said it. */
export interface ParsedError {
  message: string;
  type: string | null;
  code: string | null;
  param: string | null;
}

function parseErrorBody(text: string): ParsedError | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = OpenAiErrorBodySchema.safeParse(json);
  if (!parsed.success) return undefined;
  const error = parsed.data.error;
  if (typeof error === 'string') return { message: error, type: null, code: null, param: null };
  return {
    message: error.message ?? '',
    type: error.type ?? null,
    code: error.code === null || error.code === undefined ? null : String(error.code),
    param: error.param ?? null,
  };
}

/**
 * An upstream's non-2xx answer, mapped to SPEC §9. Errors caused by the request keep their
 * status and message; a rejected channel key or an upstream outage becomes a retryable 502
 * whose message never repeats a credential.
 */
export function mapOpenAiErrorResponse(status: number, text: string, secrets: readonly string[]): UpstreamFailure {
  const failure = mapUpstreamStatus(status, parseErrorBody(text));
  return { ...failure, error: redactUpstreamError(failure.error, secrets) };
}

/**
 * An OpenAI-style upstream's status and error words → SPEC §9: 401/403 reject the key, 408/429/5xx
 * are retryable channel faults, other 4xx are the request's (status and words kept). Also for the
 * other upstreams that classify their statuses as OpenAI does (the Suno-style task APIs).
 */
export function mapUpstreamStatus(status: number, parsed: ParsedError | undefined): UpstreamFailure {
  if (status === 401 || status === 403) return rejectedCredentials(status, `${parsed?.message ?? ''} ${parsed?.code ?? ''}`);
  if (status === 408 || status === 429 || status >= 500) {
    const detail = parsed?.message ? `: ${parsed.message}` : '';
    return {
      error: upstreamError(`The upstream provider failed with status ${status}${detail}`, parsed?.code ?? `upstream_${status}`),
      retryable: true,
      channelFault: true,
    };
  }
  return {
    error: new RelayError({
      status,
      type: parsed?.type ?? 'invalid_request_error',
      code: parsed?.code ?? null,
      param: parsed?.param ?? null,
      message: parsed?.message || `The upstream provider rejected the request with status ${status}.`,
    }),
    retryable: false,
    channelFault: false,
  };
}

/** An error event sent inside an upstream stream. */
export function mapOpenAiStreamError(error: unknown, secrets: readonly string[]): RelayError {
  const parsed = parseErrorBody(JSON.stringify({ error }));
  const mapped = new RelayError({
    status: 502,
    type: parsed?.type ?? 'upstream_error',
    code: parsed?.code ?? null,
    param: parsed?.param ?? null,
    message: parsed?.message || 'The upstream provider reported an error during the stream.',
  });
  return redactUpstreamError(mapped, secrets);
}
