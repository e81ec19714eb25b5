import { CHANNEL_TYPE_ENDPOINTS, type ChannelType, type ErrorBody } from '@chat-relay/contract';
import { redactUpstreamError, rejectedCredentials, RelayError, upstreamError, type UpstreamFailure } from '@chat-relay/wire';
import { z } from 'zod';
import { adapterFor } from '../providers/adapter-for';
import type { ChannelRecord } from '../storage/types';
import type { LiveChannel } from './channel-registry';
import { modelListPage } from './fetch-upstream-models';

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
 * free request instead (NO_CHAT_PROBES).
 */
export const testsWithChat = (channel: LiveChannel): boolean =>
  channel.endpoints.has('chat') && CHANNEL_TYPE_ENDPOINTS[channel.record.type].includes('chat');

/** How a probe for a type without chat is built: data, one entry per type. */
interface ProbeSpec {
  /** The request line without the base URL: the result's `model`. */
  name: string;
  method: 'GET' | 'POST';
  /** Beside the base URL: `/search`, `/suno/fetch`, or the whole URL of a model list. */
  url(baseUrl: string): string;
  /** Absent: the request carries no key (a SearXNG has none), so a 401/403 refuses no key. */
  headers?(key: string): Record<string, string>;
  body?: unknown;
  /** Whether a 2xx answer's JSON is what this API answers (else the base URL points elsewhere). */
  isAnswer(json: unknown): boolean;
  /** Non-2xx answers of a model provider are read by its own adapter (its error shapes). */
  readsErrorsAs?: ChannelType;
  /** What a status means for this upstream, beyond what it said. */
  hint?(status: number): string | undefined;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, accept: 'application/json' });
const json = { 'content-type': 'application/json' };
const TEST_QUERY = 'chat-relay channel test';
const SearchAnswerSchema = z.object({ results: z.array(z.unknown()) });
/** new-api's TaskResponse: `code` "success" is how its Suno adaptor tells a good answer. */
const SunoAnswerSchema = z.object({ code: z.literal('success') });

/** `GET {base}/models` in the provider's dialect: free, and it needs a key that works. */
function modelListSpec(type: ChannelType): ProbeSpec {
  const page = modelListPage(type);
  if (!page) throw new Error(`a ${type} channel has no model list`);
  return { name: 'GET /models', method: 'GET', url: page.url, headers: page.headers, isAnswer: page.isList, readsErrorsAs: type };
}

/** The free test of each type when the channel serves no chat. */
const NO_CHAT_PROBES: Readonly<Record<ChannelType, ProbeSpec>> = {
  openai: modelListSpec('openai'),
  anthropic: modelListSpec('anthropic'),
  gemini: modelListSpec('gemini'),
  // One result costs one basic search credit; Tavily has no free call that checks the key.
  tavily: {
    name: 'POST /search',
    method: 'POST',
    url: (baseUrl) => `${baseUrl}/search`,
    headers: (key) => ({ ...bearer(key), ...json }),
    body: { query: TEST_QUERY, max_results: 1 },
    isAnswer: (answer) => SearchAnswerSchema.safeParse(answer).success,
  },
  searxng: {
    name: 'GET /search',
    method: 'GET',
    url: (baseUrl) => `${baseUrl}/search?q=${encodeURIComponent(TEST_QUERY).replace(/%20/g, '+')}&format=json`,
    isAnswer: (answer) => SearchAnswerSchema.safeParse(answer).success,
    hint: (status) => (status === 403 ? 'SearXNG answers 403 while its JSON format is off: add json to search.formats in its settings.yml.' : undefined),
  },
  // No ids: nothing is fetched or charged, but the key is checked.
  suno: {
    name: 'POST /suno/fetch',
    method: 'POST',
    url: (baseUrl) => `${baseUrl}/suno/fetch`,
    headers: (key) => ({ ...bearer(key), ...json }),
    body: { ids: [] },
    isAnswer: (answer) => SunoAnswerSchema.safeParse(answer).success,
  },
};

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
function refusal(spec: ProbeSpec, status: number, text: string): UpstreamFailure {
  if ((status === 401 || status === 403) && spec.headers) return rejectedCredentials(status, text);
  const said = messageIn(text)?.replace(/\.$/, '');
  const hint = spec.hint?.(status);
  const message = `The upstream answered ${status} to ${spec.name}${said ? `: ${said}` : ''}.${hint ? ` ${hint}` : ''}`;
  return { error: upstreamError(message, `upstream_${status}`), retryable: false, channelFault: status >= 500 };
}

/** The probe of a channel serving no chat: its type's free request. */
export function noChatProbe(record: ChannelRecord): ChannelProbe {
  const spec = NO_CHAT_PROBES[record.type];
  const { name } = spec;
  const secrets = record.keys;
  return {
    name,
    call: (key) => ({
      method: spec.method,
      url: spec.url(record.baseUrl),
      headers: spec.headers?.(key) ?? { accept: 'application/json' },
      ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
    }),
    read: (status, text) => {
      if (status >= 400) {
        const failure = spec.readsErrorsAs ? adapterFor(spec.readsErrorsAs).mapErrorResponse(status, text, secrets) : refusal(spec, status, text);
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
