import type { ChatCompletionRequest } from '@chat-relay/contract';
import { modelNotFound, tokenCounterOf, type NativeDialect, type TokenCounter } from '@chat-relay/wire';
import type { z } from 'zod';
import type { Logger } from '../logger';
import { attempt, type UpstreamCall } from './attempt';
import type { AbortLike } from '../core/caller-gone';
import type { ChannelHealth } from '../channels/channel-health';
import type { ChannelRegistry } from '../channels/channel-registry';
import { countPromptTokens } from '../billing/estimate-usage';
import { pickChannel } from '../channels/pick-channel';
import type { RelayTrace } from './request-context';
import type { UpstreamClient } from '../channels/upstream/upstream-client';

export interface CountTokensDeps {
  registry: ChannelRegistry;
  health: ChannelHealth;
  upstream: UpstreamClient;
  logger: Logger;
}

/** A token count as a caller's dialect asks for it, and answers it. */
export interface CountTokensRequest<Answer> {
  /** The request in the hub's form (assistant applied): what routing and the tokenizer see. */
  hub: ChatCompletionRequest;
  /** The dialect whose channels count a request themselves (`messages`: anthropic; `generate_content`: gemini). */
  dialect: NativeDialect;
  /** The caller's own request (assistant applied), for such a channel. */
  native: Readonly<Record<string, unknown>>;
  /** The caller's bytes, when `native` is exactly them. */
  rawBody?: Buffer;
  headers: Readonly<Record<string, string>>;
  /** The provider's answer, as the caller receives it. */
  answer: z.ZodType<Answer>;
  /** The relay's own count in the dialect's answer. */
  counted(tokens: number): Answer;
}

/**
 * A count route's one call (Anthropic's `count_tokens`, Gemini's `countTokens`): a channel whose
 * provider counts the dialect's requests itself, serving the model, counts (its own tokenizer,
 * exact); otherwise, or when that channel fails, the relay's tokenizer counts the prompt as it
 * counts prompts for usage estimates. A 4xx from the channel is the caller's error. Nothing is
 * charged; one attempt, no retries: a count is cheap to ask again.
 */
export async function countTokens<Answer>(deps: CountTokensDeps, request: CountTokensRequest<Answer>, trace: RelayTrace, signal: AbortLike): Promise<Answer> {
  const model = request.hub.model;
  const candidates = await deps.registry.candidatesFor(model);
  if (candidates.length === 0) throw modelNotFound(model);
  const counting = candidates.filter((channel) => {
    const counter = tokenCounterOf(channel.record.type);
    return counter?.dialect === request.dialect && channel.hasActiveKey && (counter.counts?.(channel.upstreamModel(model)) ?? true);
  });
  const channel = pickChannel(counting, new Set(), (id) => deps.health.isAvailable(id));
  const counter = channel && tokenCounterOf(channel.record.type);
  if (channel && counter) {
    const outcome = await attempt(deps, channel, countCall(model, request, counter), trace, signal);
    if (outcome.ok && outcome.result) return outcome.result;
    if (!outcome.ok && (!outcome.retryable || signal.aborted)) throw outcome.error;
    const failed = outcome.ok ? 'count_tokens answer unreadable; counted by the relay' : 'count_tokens failed upstream; counted by the relay';
    deps.logger.warn({ requestId: trace.requestId, channelId: channel.id, status: outcome.ok ? undefined : outcome.error.status }, failed);
  }
  trace.usageEstimated = true;
  return request.counted(await countPromptTokens(request.hub));
}

/** The count asked of a channel's provider: one call, its answer read, the circuit left alone. */
function countCall<Answer>(model: string, request: CountTokensRequest<Answer>, counter: TokenCounter): UpstreamCall<Answer | undefined> {
  return {
    model,
    caller: 'count_tokens',
    leavesCircuit: true,
    prepare: ({ channel, key, upstreamModel }) => ({
      request: counter.buildRequest({ channel: channel.record, key, body: request.native, rawBody: request.rawBody, upstreamModel, headers: request.headers, stream: false }),
      mapError: (status, text) => counter.mapErrorResponse(status, text, channel.record.keys),
      answer: {
        kind: 'whole',
        read: (body) => {
          // In the dialect's shape (Anthropic's `input_tokens`): a provider answering otherwise (Bedrock's `inputTokens`) converts.
          const json = parsedOrUndefined(body.toString('utf8'));
          const counted = request.answer.safeParse(counter.convertResponse ? counter.convertResponse(json) : json);
          // Unreadable: the relay counts instead. A count uses nothing: no usage to account.
          return { ok: true, result: () => (counted.success ? counted.data : undefined) };
        },
      },
    }),
  };
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
