import type { ChannelTestResult, ChatCompletionRequest } from '@chat-relay/contract';
import { performance } from 'node:perf_hooks';
import { chatAdapterOf, invalidRequest, redactUpstreamError } from '@chat-relay/wire';
import { CallerGone, type AbortLike } from '../core/caller-gone';
import { noChatProbe, testsWithChat, type ChannelProbe } from './channel-checks-probes';
import { LiveChannel } from './channel-registry';
import { isGlob } from '../core/model-pattern';
import { transportFailure } from './upstream/transport-failure';
import type { UpstreamClient } from './upstream/upstream-client';
import type { ChannelRecord } from '../storage/types';

/** Small enough to cost next to nothing, large enough for any provider to answer. */
const TEST_MAX_TOKENS = 8;
/** The admin waits at most this long for the first byte, whatever the channel allows its callers. */
const TEST_FIRST_BYTE_MS = 30_000;

/** The model to test with: the one asked for, else the first plain name the channel lists. */
function testModel(channel: LiveChannel, asked: string | undefined): string {
  if (asked !== undefined) {
    if (!channel.serves(asked)) throw invalidRequest(`The channel does not serve '${asked}'.`, 'model', 'model_not_served');
    return asked;
  }
  const named = channel.record.models.find((model) => !isGlob(model)) ?? Object.keys(channel.record.modelMapping)[0];
  if (named === undefined) {
    throw invalidRequest('The channel lists only globs: name the model to test with in the body.', 'model', 'model_required');
  }
  return named;
}

/** What to test a channel with; everything optional. */
export interface ChannelTestOptions {
  /** A model the channel serves; default: the first plain name it lists. */
  model?: string;
  /** One key alone (its position); default: the next active key. */
  keyIndex?: number;
  /** Aborts the call (the relay shutting down). */
  signal?: AbortLike;
}

/** The test's answer, and whether the upstream refused the key itself (401/403, not about the model). */
export interface ChannelTestRun {
  result: ChannelTestResult;
  keyRejected: boolean;
}

/** The key a test uses: the one asked for, else the next active one (the first when all are disabled). */
function testKey(channel: LiveChannel, keyIndex: number | undefined): string {
  const { keys } = channel.record;
  if (keyIndex !== undefined) {
    const key = keys[keyIndex];
    if (key === undefined) throw invalidRequest(`The channel has no key at position ${keyIndex}.`, 'key_index', 'invalid_value');
    return key;
  }
  return channel.hasActiveKey ? channel.nextKey() : (keys[0] ?? '');
}

/** The minimal chat request, read by the channel type's adapter. */
function chatProbe(channel: LiveChannel, model: string): ChannelProbe {
  const { record } = channel;
  const upstreamModel = channel.upstreamModel(model);
  const adapter = chatAdapterOf(record.type, upstreamModel);
  const request: ChatCompletionRequest = { model, messages: [{ role: 'user', content: 'Say OK.' }], max_tokens: TEST_MAX_TOKENS };
  return {
    name: model,
    call: (key) => {
      const { url, headers, body } = adapter.buildRequest({ channel: record, key, request, upstreamModel });
      // A chat request is JSON: no chat adapter builds a multipart form.
      if (typeof body !== 'string' && !Buffer.isBuffer(body)) throw new Error(`the ${record.type} chat adapter built a multipart body`);
      return { method: 'POST', url, headers, body };
    },
    read: (status, text) => {
      if (status >= 400) {
        const failure = adapter.mapErrorResponse(status, text, record.keys);
        return { error: failure.error.toBody().error, keyRejected: failure.keyRejected === true };
      }
      const converted = adapter.convertResponse(text, model);
      return converted.ok ? undefined : { error: redactUpstreamError(converted.error, record.keys).toBody().error, keyRejected: false };
    },
  };
}

/**
 * `POST /api/channels/{id}/test` (SPEC §4) and the scheduled check: one real minimal request
 * through the channel — a chat request when it serves chat, else its type's free request (the
 * model list, a one-result search, a Suno fetch of no ids: see NO_CHAT_PROBES). It changes
 * nothing itself: no key is disabled, the circuit is not told, no usage row is written — the
 * caller decides what the answer means. The result's `model` names what was tested.
 */
export async function runChannelTest(upstream: UpstreamClient, record: ChannelRecord, options: ChannelTestOptions = {}): Promise<ChannelTestRun> {
  const channel = new LiveChannel(record);
  const withChat = testsWithChat(channel);
  // A model asked for must be the channel's, whichever test runs; only chat needs one.
  const model = withChat || options.model !== undefined ? testModel(channel, options.model) : undefined;
  const probe = withChat && model !== undefined ? chatProbe(channel, model) : noChatProbe(record);
  const key = testKey(channel, options.keyIndex);
  const { method, url, headers, body } = probe.call(key);
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const name = probe.name;
  try {
    const timeouts = { ...record.timeouts, firstByteMs: Math.min(record.timeouts.firstByteMs, TEST_FIRST_BYTE_MS) };
    const signal = options.signal ?? new CallerGone();
    const response = await upstream.post({ channel: { ...record, timeouts }, key, url, method, headers, body, signal });
    const text = await response.body.text();
    const failed = probe.read(response.statusCode, text);
    if (failed) return { result: { ok: false, latency_ms: latency(), model: name, status: response.statusCode, error: failed.error }, keyRejected: failed.keyRejected };
    return { result: { ok: true, latency_ms: latency(), model: name, status: response.statusCode }, keyRejected: false };
  } catch (error) {
    return { result: { ok: false, latency_ms: latency(), model: name, error: transportFailure(error).error.toBody().error }, keyRejected: false };
  }
}
