import { CHANNEL_TYPE_ENDPOINTS, type ErrorBody } from '@chat-relay/contract';
import { healthProbeOf, redactUpstreamError, rejectedCredentials, RelayError, upstreamError, type HealthProbe, type UpstreamFailure } from '@chat-relay/wire';
import { z } from 'zod';
import type { ChannelRecord } from '../storage/types';
import type { LiveChannel } from './channel-registry';

/** One request that tells whether a channel's base URL and key work. */
export interface ProbeCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Why a test failed: the error (the channel's keys cut out) and whether it was the key itself the upstream refused. */
export interface ProbeFailure {
  error: ErrorBody;
  keyRejected: boolean;
}

/** A channel test: what it is called in the result (`model`), the request with a key, and how to read the answer. */
export interface ChannelProbe {
  name: string;
  call(key: string): ProbeCall;
  /** The upstream's answer; undefined when it passed. */
  read(status: number, text: string): ProbeFailure | undefined;
}

/**
 * Whether a channel is tested with a minimal chat request: it serves chat and its type has chat at
 * all. Every other channel (embeddings only, a search engine, a Suno-style API) gets its type's
 * free request instead (its provider module's `probe`).
 */
export const testsWithChat = (channel: LiveChannel): boolean =>
  channel.endpoints.has('chat') && CHANNEL_TYPE_ENDPOINTS[channel.record.type].includes('chat');

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A message in the usual error shapes: OpenAI's `error.message`, Tavily's `detail.error`, new-api's `message`. */
const ErrorTextSchema = z.union([
  z.object({ error: z.object({ message: z.string() }) }).transform((body) => body.error.message),
  z.object({ error: z.string() }).transform((body) => body.error),
  z.object({ detail: z.object({ error: z.string() }) }).transform((body) => body.detail.error),
  z.object({ detail: z.string() }).transform((body) => body.detail),
  z.object({ message: z.string().min(1) }).transform((body) => body.message),
]);

const messageIn = (text: string): string | undefined => {
  const parsed = ErrorTextSchema.safeParse(parseJson(text));
  return parsed.success ? parsed.data.slice(0, 500) : undefined;
};

/** A refusal of an upstream with no adapter: 401/403 says the key (when one was sent), anything else its status. */
function refusal(spec: HealthProbe, status: number, text: string): UpstreamFailure {
  if ((status === 401 || status === 403) && spec.headers) return rejectedCredentials(status, text);
  const said = messageIn(text)?.replace(/\.$/, '');
  const hint = spec.hint?.(status);
  const message = `The upstream answered ${status} to ${spec.name}${said ? `: ${said}` : ''}.${hint ? ` ${hint}` : ''}`;
  return { error: upstreamError(message, `upstream_${status}`), retryable: false, channelFault: status >= 500 };
}

/** The probe of a channel serving no chat: its type's free request. */
export function noChatProbe(record: ChannelRecord): ChannelProbe {
  const spec = healthProbeOf(record.type);
  const { name } = spec;
  const secrets = record.keys;
  return {
    name,
    call: (key) => ({
      method: spec.method,
      url: spec.url(record.baseUrl, record.cloud),
      headers: spec.headers?.(key) ?? { accept: 'application/json' },
      ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
    }),
    read: (status, text) => {
      if (status >= 400) {
        const failure = spec.mapErrorResponse ? spec.mapErrorResponse(status, text, secrets) : refusal(spec, status, text);
        return { error: redactUpstreamError(failure.error, secrets).toBody().error, keyRejected: failure.keyRejected === true };
      }
      if (spec.isAnswer(parseJson(text))) return undefined;
      const said = messageIn(text);
      const error = new RelayError({
        status: 502,
        type: 'upstream_error',
        code: 'upstream_invalid_response',
        message: `The upstream's answer to ${name} is not what the channel's type (${record.type}) answers${said ? `: ${said}` : ''}; check the base URL.`,
      });
      return { error: redactUpstreamError(error, secrets).toBody().error, keyRejected: false };
    },
  };
}
