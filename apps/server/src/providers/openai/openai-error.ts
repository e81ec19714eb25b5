import { RelayError, upstreamError } from '../../errors/relay-error';
import type { UpstreamFailure } from '../provider-adapter';
import { OpenAiErrorBodySchema } from './openai-api';
import { redactSecrets } from './redact-secrets';


interface ParsedError {
  message: string;
  type: string | null;
  code: string | null;
  param: string | null;
}

function parseErrorBody(text: string, secrets: readonly string[]): ParsedError | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = OpenAiErrorBodySchema.safeParse(json);
  if (!parsed.success) return undefined;
  const error = parsed.data.error;
  if (typeof error === 'string') return { message: redactSecrets(error, secrets), type: null, code: null, param: null };
  return {
    message: redactSecrets(error.message ?? '', secrets),
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
  const parsed = parseErrorBody(text, secrets);
  if (status === 401 || status === 403) {
    return {
      error: upstreamError('The upstream provider rejected the credentials of the channel.', 'upstream_auth_failed'),
      retryable: true,
      channelFault: true,
    };
  }
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
  const parsed = parseErrorBody(JSON.stringify({ error }), secrets);
  return new RelayError({
    status: 502,
    type: parsed?.type ?? 'upstream_error',
    code: parsed?.code ?? null,
    param: parsed?.param ?? null,
    message: parsed?.message || 'The upstream provider reported an error during the stream.',
  });
}
