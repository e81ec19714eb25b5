import {
  AnthropicCountTokensResponseSchema,
  type AnthropicCountTokensRequest,
  type AnthropicCountTokensResponse,
  type ChatCompletionRequest,
} from '@chat-relay/contract';
import { anthropicNativeAdapter, buildAnthropicCountTokensRequest, modelNotFound, RelayError, stripBridgedThinking } from '@chat-relay/wire';
import type { Logger } from '../logger';
import type { AbortLike } from './caller-gone';
import type { ChannelHealth } from './channel-health';
import type { ChannelRegistry } from './channel-registry';
import { countPromptTokens } from './estimate-usage';
import { pickChannel } from './pick-channel';
import type { RelayTrace } from './request-context';
import type { UpstreamClient } from './upstream-client';

export interface CountTokensDeps {
  registry: ChannelRegistry;
  health: ChannelHealth;
  upstream: UpstreamClient;
  logger: Logger;
}

export interface CountTokensRequest {
  /** The request in the hub's form (assistant applied): what routing and the tokenizer see. */
  hub: ChatCompletionRequest;
  /** The caller's own request (assistant applied), for an Anthropic channel. */
  native: AnthropicCountTokensRequest;
  /** The caller's bytes, when `native` is exactly them. */
  rawBody?: Buffer;
  headers: Readonly<Record<string, string>>;
}

/**
 * `POST /v1/messages/count_tokens`: an `anthropic` channel serving the model counts (its own
 * tokenizer, exact); otherwise, or when that channel fails, the relay's tokenizer counts the
 * prompt as it counts prompts for usage estimates. A 4xx from the channel is the caller's error.
 * Nothing is charged; one attempt, no retries: a count is cheap to ask again.
 */
export async function countMessageTokens(
  deps: CountTokensDeps,
  request: CountTokensRequest,
  trace: RelayTrace,
  signal: AbortLike,
): Promise<AnthropicCountTokensResponse> {
  const model = request.hub.model;
  const candidates = await deps.registry.candidatesFor(model);
  if (candidates.length === 0) throw modelNotFound(model);
  const anthropic = candidates.filter((channel) => channel.record.type === 'anthropic' && channel.hasActiveKey);
  const channel = pickChannel(anthropic, new Set(), (id) => deps.health.isAvailable(id));
  if (channel) {
    const key = channel.nextKey();
    const upstreamModel = channel.upstreamModel(model);
    trace.channelId = channel.id;
    trace.upstreamModel = upstreamModel;
    trace.attempts += 1;
    const native = stripBridgedThinking(request.native);
    const call = buildAnthropicCountTokensRequest({
      channel: channel.record,
      key,
      body: native,
      rawBody: native === request.native ? request.rawBody : undefined,
      upstreamModel,
      headers: request.headers,
      stream: false,
    });
    try {
      const response = await deps.upstream.post({ channel: channel.record, ...call, signal });
      const text = await response.body.text();
      if (response.statusCode >= 400) {
        const failure = anthropicNativeAdapter.mapErrorResponse(response.statusCode, text, channel.record.keys);
        if (!failure.retryable) throw failure.error;
        deps.logger.warn({ requestId: trace.requestId, channelId: channel.id, status: response.statusCode }, 'count_tokens failed upstream; counted by the relay');
      } else {
        const counted = AnthropicCountTokensResponseSchema.safeParse(JSON.parse(text));
        if (counted.success) return counted.data;
        deps.logger.warn({ requestId: trace.requestId, channelId: channel.id }, 'count_tokens answer unreadable; counted by the relay');
      }
    } catch (error) {
      if (signal.aborted || error instanceof RelayError) throw error;
      deps.logger.warn({ requestId: trace.requestId, channelId: channel.id, err: error }, 'count_tokens failed upstream; counted by the relay');
    }
  }
  trace.usageEstimated = true;
  return { input_tokens: await countPromptTokens(request.hub) };
}
