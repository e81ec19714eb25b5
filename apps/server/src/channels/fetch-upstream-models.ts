import { aChannelOfType, ENDPOINTS, type ChannelType, type Endpoint } from '@chat-relay/contract';
import { ANTHROPIC_VERSION, redactSecrets, RelayError, invalidRequest } from '@chat-relay/wire';
import { z } from 'zod';
import { adapterFor } from '../providers/adapter-for';
import type { ChannelRecord, SyncedModel } from '../storage/types';
import { CallerGone, type AbortLike } from '../core/caller-gone';
import { endpointsNamedBy } from './model-endpoints';
import { transportFailure } from './upstream/transport-failure';
import type { UpstreamBody } from './upstream/upstream-body';
import type { UpstreamClient } from './upstream/upstream-client';

/** Pages followed at most (Anthropic's `has_more`, Gemini's `nextPageToken`): a list that never ends is cut here. */
export const MODEL_LIST_MAX_PAGES = 20;
/** Models kept at most, whatever the upstream lists. */
export const MODEL_LIST_MAX_MODELS = 10_000;
/** One page's answer, at most: OpenRouter's list with its descriptions is about 2 MB. */
const MAX_PAGE_BYTES = 16 * 1024 * 1024;
/** The admin waits at most this long for the first byte of a page, whatever the channel allows its callers. */
const LIST_FIRST_BYTE_MS = 30_000;

const OpenAiModelSchema = z.object({ id: z.string().min(1) });
/** `{data: [...]}` as OpenAI answers; a bare array as some OpenAI-compatible servers (Together) do. */
const OpenAiModelListSchema = z.preprocess(
  (json) => (Array.isArray(json) ? { data: json } : json),
  z.object({ data: z.array(OpenAiModelSchema) }),
);

const AnthropicModelListSchema = z.object({
  data: z.array(z.object({ id: z.string().min(1) })),
  has_more: z.boolean().optional(),
  last_id: z.string().nullish(),
});

/** Gemini leaves `models` out of an empty page. */
const GeminiModelListSchema = z.object({
  models: z.array(z.object({ name: z.string().min(1), supportedGenerationMethods: z.array(z.string()).optional() })).optional(),
  nextPageToken: z.string().optional(),
});

/** What a Gemini method name says a model serves through the relay; others (countTokens, bidiGenerateContent …) say nothing. */
const GEMINI_METHOD_ENDPOINTS: Readonly<Record<string, readonly Endpoint[]>> = {
  generateContent: ['chat', 'completions'],
  embedContent: ['embeddings'],
  batchEmbedContents: ['embeddings'],
  predict: ['images'],
};

/** One page of a provider's list: the models on it, and the cursor of the next page when there is one. */
interface ListPage {
  models: SyncedModel[];
  next?: string;
}

interface ProviderList {
  url(baseUrl: string, cursor: string | undefined): string;
  headers(key: string): Record<string, string>;
  parse(json: unknown): z.SafeParseReturnType<unknown, ListPage>;
}

const inEndpointOrder = (endpoints: ReadonlySet<Endpoint>): Endpoint[] => ENDPOINTS.filter((endpoint) => endpoints.has(endpoint));

/**
 * A Gemini model's methods → the endpoints it serves. An image-output model (its name says
 * images) makes images through generateContent, as the relay's images route asks it to.
 */
export function geminiEndpoints(name: string, methods: readonly string[]): Endpoint[] {
  const served = new Set<Endpoint>();
  for (const method of methods) for (const endpoint of GEMINI_METHOD_ENDPOINTS[method] ?? []) served.add(endpoint);
  if (methods.includes('generateContent') && endpointsNamedBy(name)?.includes('images')) served.add('images');
  return inEndpointOrder(served);
}

const LISTS: Readonly<Partial<Record<ChannelType, ProviderList>>> = {
  openai: {
    url: (baseUrl) => `${baseUrl}/models`,
    headers: (key) => ({ authorization: `Bearer ${key}`, accept: 'application/json' }),
    parse: (json) =>
      OpenAiModelListSchema.transform((list) => ({
        models: list.data.map((model) => ({ id: model.id, endpoints: null })),
      })).safeParse(json),
  },
  anthropic: {
    url: (baseUrl, cursor) => `${baseUrl}/models?limit=1000${cursor === undefined ? '' : `&after_id=${encodeURIComponent(cursor)}`}`,
    headers: (key) => ({ 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION, accept: 'application/json' }),
    parse: (json) =>
      AnthropicModelListSchema.transform((list) => ({
        models: list.data.map((model) => ({ id: model.id, endpoints: null })),
        next: list.has_more && list.last_id ? list.last_id : undefined,
      })).safeParse(json),
  },
  gemini: {
    url: (baseUrl, cursor) => `${baseUrl}/models?pageSize=1000${cursor === undefined ? '' : `&pageToken=${encodeURIComponent(cursor)}`}`,
    headers: (key) => ({ 'x-goog-api-key': key, accept: 'application/json' }),
    parse: (json) =>
      GeminiModelListSchema.transform((list) => ({
        models: (list.models ?? []).flatMap((model) => {
          const id = model.name.replace(/^models\//, '');
          const endpoints = geminiEndpoints(id, model.supportedGenerationMethods ?? []);
          // Nothing the relay can call it for (an answer-only or a video model).
          return endpoints.length > 0 ? [{ id, endpoints }] : [];
        }),
        next: list.nextPageToken || undefined,
      })).safeParse(json),
  },
};

/** Whether the channel's type has a model list to fetch (search engines and Suno-style APIs have none). */
export const hasModelList = (type: ChannelType): boolean => LISTS[type] !== undefined;

/** The first page of the type's model list as one request (the free test of a channel serving no chat). */
export interface ModelListPage {
  url(baseUrl: string): string;
  headers(key: string): Record<string, string>;
  /** Whether a 2xx answer's JSON is a model list in the type's dialect. */
  isList(json: unknown): boolean;
}

export function modelListPage(type: ChannelType): ModelListPage | undefined {
  const list = LISTS[type];
  if (!list) return undefined;
  return { url: (baseUrl) => list.url(baseUrl, undefined), headers: (key) => list.headers(key), isList: (json) => list.parse(json).success };
}

/** A sync asked of a channel whose type lists no models: the admin's mistake, said plainly. */
export function noModelList(type: ChannelType): RelayError {
  return invalidRequest(`Nothing to sync: ${aChannelOfType(type)} has no model list; set its models by hand.`, null, 'no_model_list');
}

/** Every failure of a sync: a 502 whose text names no key, whatever the upstream quoted. */
function syncFailed(channel: ChannelRecord, message: string, code: string | null): RelayError {
  return new RelayError({ status: 502, type: 'upstream_error', code, message: redactSecrets(message, channel.keys) });
}

async function readCapped(body: UpstreamBody): Promise<string | undefined> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of body) {
    size += piece.length;
    if (size > MAX_PAGE_BYTES) return undefined;
    pieces.push(piece);
  }
  return Buffer.concat(pieces).toString('utf8');
}

/** What the channel's keys may use first: its first active key. */
function firstActiveKey(channel: ChannelRecord): string {
  const key = channel.keys.find((_, index) => channel.keyStates[index]?.status !== 'disabled');
  if (key === undefined) {
    throw invalidRequest('Every key of the channel is disabled: re-enable one to fetch its model list.', 'keys', 'no_active_key');
  }
  return key;
}

/**
 * The upstream's model list (`GET {base_url}/models` in its provider's dialect), every page up
 * to MODEL_LIST_MAX_PAGES, with the channel's first active key and timeouts. Throws a 502
 * RelayError (keys redacted) when the upstream cannot be reached, refuses, or answers something
 * else than a model list; a 400 when the channel has no active key or its type no list.
 */
export async function fetchUpstreamModels(
  upstream: UpstreamClient,
  channel: ChannelRecord,
  signal: AbortLike = new CallerGone(),
): Promise<SyncedModel[]> {
  const list = LISTS[channel.type];
  if (!list) throw noModelList(channel.type);
  const key = firstActiveKey(channel);
  const timeouts = { ...channel.timeouts, firstByteMs: Math.min(channel.timeouts.firstByteMs, LIST_FIRST_BYTE_MS) };
  const target = { ...channel, timeouts };
  const found = new Map<string, SyncedModel>();
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MODEL_LIST_MAX_PAGES; page += 1) {
    const url = list.url(channel.baseUrl, cursor);
    const where = `GET ${new URL(url).pathname}`;
    let status: number;
    let text: string | undefined;
    try {
      const response = await upstream.post({ channel: target, url, method: 'GET', headers: list.headers(key), signal });
      status = response.statusCode;
      text = await readCapped(response.body);
    } catch (error) {
      const failure = transportFailure(error).error;
      throw syncFailed(channel, `Fetching the upstream's model list (${where}) failed: ${failure.message}`, failure.code);
    }
    if (text === undefined) {
      throw syncFailed(channel, `The upstream's model list (${where}) is larger than ${MAX_PAGE_BYTES} bytes.`, 'upstream_invalid_model_list');
    }
    if (status >= 300) {
      const mapped = adapterFor(channel.type).mapErrorResponse(status, text, channel.keys).error;
      throw syncFailed(channel, `The upstream answered ${status} to ${where}: ${mapped.message}`, mapped.code ?? `upstream_${status}`);
    }
    const json = parseJson(text);
    if (json === NOT_JSON) throw syncFailed(channel, `The upstream's answer to ${where} is not JSON.`, 'upstream_invalid_model_list');
    const parsed = list.parse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const detail = issue ? `${issue.path.join('.') || 'the answer'}: ${issue.message}` : 'unexpected shape';
      throw syncFailed(channel, `The upstream's answer to ${where} is not a model list (${detail}).`, 'upstream_invalid_model_list');
    }
    for (const model of parsed.data.models) {
      if (found.size >= MODEL_LIST_MAX_MODELS) break;
      if (!found.has(model.id)) found.set(model.id, model);
    }
    const next = parsed.data.next;
    // A cursor seen before would loop: the list is what was read so far.
    if (next === undefined || seenCursors.has(next) || found.size >= MODEL_LIST_MAX_MODELS) break;
    seenCursors.add(next);
    cursor = next;
  }
  return [...found.values()].sort((a, b) => a.id.localeCompare(b.id));
}

const NOT_JSON = Symbol('not JSON');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
