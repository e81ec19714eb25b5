import { z } from 'zod';
import { rejectedCredentials } from '../errors/key-rejection';
import { RelayError, upstreamError } from '../errors/relay-error';
import { redactSecrets } from '../errors/redact-secrets';
import { redactUpstreamError } from '../errors/redact-upstream-error';
import type { UpstreamFailure } from '../hub/upstream-adapter';
import { realKeys } from './search-common';

/** Longest upstream message quoted back: an HTML error page is no message. */
const MAX_MESSAGE_CHARS = 500;

/**
 * Tavily's error bodies: `{"detail": {"error": "…"}}`; FastAPI's own `{"detail": "…"}` and its
 * validation list `{"detail": [{"msg": "…"}]}` for what its handlers never see.
 */
const TavilyErrorSchema = z.object({
  detail: z.union([
    z.object({ error: z.string() }).passthrough(),
    z.string(),
    z.array(z.object({ msg: z.string() }).passthrough()).min(1),
  ]),
});

/** The message of a Tavily error body, or undefined when the body is none of its shapes. */
export function tavilyErrorMessage(text: string): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = TavilyErrorSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { detail } = parsed.data;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) return detail.map((issue) => issue.msg).join('; ');
  return detail.error;
}

/**
 * Tavily's statuses for a spent allowance — 432: the key's plan limit, 433: its pay-as-you-go
 * limit. The channel's trouble, not the caller's: another channel may still have credits.
 */
const ALLOWANCE_SPENT = new Set([432, 433]);

interface SearchErrorArgs {
  provider: 'Tavily' | 'SearXNG';
  status: number;
  /** The upstream's own words, when its body had them. */
  message: string | undefined;
  /** The channel's keys, redacted from everything built here. */
  secrets: readonly string[];
}

/**
 * A search engine's non-2xx answer → SPEC §9, as for the model providers: 401/403 reject the key
 * (disabled, another tried) — unless the channel has no key (`none`), then the engine refuses the
 * relay itself (SearXNG's 403 when its JSON format is turned off): a channel fault; 408, 429,
 * Tavily's 432/433 and 5xx are retryable channel faults; other 4xx are the request's, their status
 * and message kept. No field ever repeats a key.
 */
export function mapSearchErrorResponse({ provider, status, message, secrets }: SearchErrorArgs): UpstreamFailure {
  const keys = realKeys(secrets);
  const words = message ? redactSecrets(message, keys).trim().slice(0, MAX_MESSAGE_CHARS) : '';
  const failure = mapStatus(provider, status, words, keys.length > 0);
  return { ...failure, error: redactUpstreamError(failure.error, keys) };
}

function mapStatus(provider: SearchErrorArgs['provider'], status: number, message: string, hasKey: boolean): UpstreamFailure {
  if ((status === 401 || status === 403) && hasKey) return rejectedCredentials(status, message);
  if (status === 401 || status === 403) {
    const hint = provider === 'SearXNG' ? " (is 'json' listed in search.formats of its settings.yml?)" : '';
    return {
      error: upstreamError(`The upstream ${provider} refused the relay's request with status ${status}${hint}${message ? `: ${message}` : '.'}`, `upstream_${status}`),
      retryable: true,
      channelFault: true,
    };
  }
  if (status === 408 || status === 429 || ALLOWANCE_SPENT.has(status) || status >= 500) {
    return {
      error: upstreamError(`The upstream provider failed with status ${status}${message ? `: ${message}` : '.'}`, `upstream_${status}`),
      retryable: true,
      channelFault: true,
    };
  }
  return {
    error: new RelayError({
      status: status >= 400 && status < 500 ? status : 502,
      type: 'invalid_request_error',
      code: null,
      message: message || `The upstream ${provider} rejected the search with status ${status}.`,
    }),
    retryable: false,
    channelFault: false,
  };
}
