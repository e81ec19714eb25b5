import type { ChannelTestResult, ChatCompletionRequest } from '@chat-relay/contract';
import { performance } from 'node:perf_hooks';
import { invalidRequest, redactUpstreamError } from '@chat-relay/wire';
import { adapterFor } from '../providers/adapter-for';
import { CallerGone } from '../relay/caller-gone';
import { LiveChannel } from '../relay/channel-registry';
import { isGlob } from '../relay/model-pattern';
import { transportFailure } from '../relay/transport-failure';
import type { UpstreamClient } from '../relay/upstream-client';
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

/**
 * `POST /api/channels/{id}/test` (SPEC §4): one real minimal chat request through the channel,
 * with its next active key (its first when all are disabled, to see whether it works again).
 * It changes nothing: no key is disabled, the circuit is not told, no usage row is written.
 */
export async function testChannel(
  upstream: UpstreamClient,
  record: ChannelRecord,
  askedModel: string | undefined,
): Promise<ChannelTestResult> {
  const channel = new LiveChannel(record);
  const model = testModel(channel, askedModel);
  const request: ChatCompletionRequest = {
    model,
    messages: [{ role: 'user', content: 'Say OK.' }],
    max_tokens: TEST_MAX_TOKENS,
  };
  const key = channel.hasActiveKey ? channel.nextKey() : (record.keys[0] ?? '');
  const adapter = adapterFor(record.type);
  const { url, headers, body } = adapter.buildRequest({ channel: record, key, request, upstreamModel: channel.upstreamModel(model) });
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  try {
    const timeouts = { ...record.timeouts, firstByteMs: Math.min(record.timeouts.firstByteMs, TEST_FIRST_BYTE_MS) };
    const response = await upstream.post({ channel: { ...record, timeouts }, url, headers, body, signal: new CallerGone() });
    const text = await response.body.text();
    if (response.statusCode >= 400) {
      const error = adapter.mapErrorResponse(response.statusCode, text, record.keys).error.toBody().error;
      return { ok: false, latency_ms: latency(), model, status: response.statusCode, error };
    }
    const converted = adapter.convertResponse(text, model);
    if (!converted.ok) {
      const error = redactUpstreamError(converted.error, record.keys).toBody().error;
      return { ok: false, latency_ms: latency(), model, status: response.statusCode, error };
    }
    return { ok: true, latency_ms: latency(), model, status: response.statusCode };
  } catch (error) {
    return { ok: false, latency_ms: latency(), model, error: transportFailure(error).error.toBody().error };
  }
}
