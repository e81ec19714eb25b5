import { aChannelOfType, type ChannelType, type Endpoint } from '@chat-relay/contract';
import { geminiEndpoints as geminiEndpointsNamedBy, invalidRequest, modelListOf, redactSecrets, RelayError } from '@chat-relay/wire';
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

/** A Gemini model's methods → the endpoints it serves (its provider module's rule, with the relay's names). */
export const geminiEndpoints = (name: string, methods: readonly string[]): Endpoint[] => geminiEndpointsNamedBy(name, methods, endpointsNamedBy);

/** Whether the channel's type has a model list to fetch (search engines and Suno-style APIs have none). */
export const hasModelList = (type: ChannelType): boolean => modelListOf(type) !== undefined;

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
  const list = modelListOf(channel.type);
  if (!list) throw noModelList(channel.type);
  const key = firstActiveKey(channel);
  const timeouts = { ...channel.timeouts, firstByteMs: Math.min(channel.timeouts.firstByteMs, LIST_FIRST_BYTE_MS) };
  const target = { ...channel, timeouts };
  const found = new Map<string, SyncedModel>();
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MODEL_LIST_MAX_PAGES; page += 1) {
    const url = list.url(channel.baseUrl, cursor, channel.cloud);
    const where = `GET ${new URL(url).pathname}`;
    let status: number;
    let text: string | undefined;
    try {
      const response = await upstream.post({ channel: target, key, url, method: 'GET', headers: list.headers(key), signal });
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
      const mapped = list.mapErrorResponse(status, text, channel.keys).error;
      throw syncFailed(channel, `The upstream answered ${status} to ${where}: ${mapped.message}`, mapped.code ?? `upstream_${status}`);
    }
    const json = parseJson(text);
    if (json === NOT_JSON) throw syncFailed(channel, `The upstream's answer to ${where} is not JSON.`, 'upstream_invalid_model_list');
    const parsed = list.parse(json, endpointsNamedBy);
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
