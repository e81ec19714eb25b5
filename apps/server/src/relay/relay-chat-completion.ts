import type { ChatCompletionRequest } from '@chat-relay/contract';
import { modelNotFound, noAvailableChannel, upstreamError, type RelayError } from '../errors/relay-error';
import type { Logger } from '../logger';
import { adapterFor } from '../providers/adapter-for';
import type { ReportedUsage, UpstreamFailure } from '../providers/provider-adapter';
import type { AbortLike } from './caller-gone';
import type { ChannelHealth } from './channel-health';
import type { ChannelRegistry, LiveChannel } from './channel-registry';
import { completionTextOf, countCompletionTokens, countPromptTokens, estimateTokensFromChars, roughPromptTokens } from './estimate-usage';
import { pickChannel } from './pick-channel';
import { pumpSseStream, type SseBody } from './pump-sse-stream';
import type { RelayTrace } from './request-context';
import { transportFailure } from './transport-failure';
import type { UpstreamClient } from './upstream-client';

export interface ChatRelayDeps {
  registry: ChannelRegistry;
  health: ChannelHealth;
  upstream: UpstreamClient;
  maxRetries: number;
  logger: Logger;
}

export type ChatRelayResult =
  | { kind: 'json'; body: Record<string, unknown>; text?: string }
  | { kind: 'stream'; body: SseBody };

/** The request to send (its `model` is what routing looks up) and the name the caller used. */
export interface RelayedRequest {
  request: ChatCompletionRequest;
  publicModel: string;
  /** The caller's bytes, when `request` is exactly what they parsed to (see BuildRequestArgs). */
  rawBody?: Buffer;
}

type AttemptOutcome = { ok: true; result: ChatRelayResult } | ({ ok: false } & UpstreamFailure);

/**
 * The hot path after auth: pick a channel for the model, send, and on a retryable failure
 * before anything reached the caller try another channel, up to `maxRetries` times (SPEC §6).
 */
export async function relayChatCompletion(
  deps: ChatRelayDeps,
  relayed: RelayedRequest,
  trace: RelayTrace,
  signal: AbortLike,
): Promise<ChatRelayResult> {
  const { request } = relayed;
  const candidates = await deps.registry.candidatesFor(request.model);
  if (candidates.length === 0) throw modelNotFound(request.model);

  const tried = new Set<number>();
  let lastFailure: RelayError | undefined;
  for (let attempt = 0; attempt <= deps.maxRetries; attempt++) {
    const channel = pickChannel(candidates, tried, (id) => deps.health.isAvailable(id));
    if (!channel) break;
    tried.add(channel.id);
    const outcome = await attemptChannel(deps, channel, relayed, trace, signal);
    if (outcome.ok) return outcome.result;
    if (outcome.channelFault) deps.health.recordFailure(channel.id);
    lastFailure = outcome.error;
    deps.logger.warn(
      { requestId: trace.requestId, channelId: channel.id, status: outcome.error.status, code: outcome.error.code },
      'upstream attempt failed',
    );
    if (!outcome.retryable || signal.aborted) throw outcome.error;
  }
  throw lastFailure ?? noAvailableChannel(request.model);
}

async function attemptChannel(
  deps: ChatRelayDeps,
  channel: LiveChannel,
  { request, publicModel, rawBody }: RelayedRequest,
  trace: RelayTrace,
  signal: AbortLike,
): Promise<AttemptOutcome> {
  const adapter = adapterFor(channel.record.type);
  const key = channel.nextKey();
  const upstreamModel = channel.upstreamModel(request.model);
  trace.channelId = channel.id;
  trace.upstreamModel = upstreamModel;
  // A request the provider cannot express is the caller's error (400), whichever channel.
  const upstreamRequest = adapter.buildRequest({ channel: channel.record, key, request, upstreamModel, rawBody });
  if (upstreamRequest.warnings) {
    deps.logger.info({ requestId: trace.requestId, channelId: channel.id, warnings: upstreamRequest.warnings }, 'request translated with warnings');
  }
  trace.attempts += 1;
  deps.health.markAttempt(channel.id);

  let response;
  try {
    const { url, headers, body } = upstreamRequest;
    response = await deps.upstream.post({ channel: channel.record, url, headers, body, signal });
  } catch (error) {
    return { ok: false, ...transportFailure(error) };
  }

  try {
    if (response.statusCode >= 400) {
      const text = await response.body.text();
      return { ok: false, ...adapter.mapErrorResponse(response.statusCode, text, channel.record.keys) };
    }
    if (!request.stream) {
      const converted = adapter.convertResponse(await response.body.text(), publicModel);
      if (!converted.ok) return { ok: false, error: converted.error, retryable: true, channelFault: true };
      deps.health.recordSuccess(channel.id);
      await recordUsage(deps.logger, trace, request, converted.usage, () => completionTextOf(converted.body));
      return { ok: true, result: { kind: 'json', body: converted.body, text: converted.text } };
    }
  } catch (error) {
    return { ok: false, ...transportFailure(error) };
  }

  // Streams commit only once the upstream has sent its first bytes: until then, another
  // channel can still be tried without the caller noticing.
  const upstream = response.body;
  let first: IteratorResult<Buffer>;
  try {
    first = await upstream.next();
  } catch (error) {
    return { ok: false, ...transportFailure(error) };
  }
  if (first.done) {
    const error = upstreamError('The upstream provider closed the stream before sending anything.', 'empty_stream');
    return { ok: false, error, retryable: true, channelFault: true };
  }
  deps.health.recordSuccess(channel.id);
  const transformer = adapter.createStreamTransformer({
    publicModel,
    callerWantsUsage: request.stream_options?.include_usage === true,
    secrets: channel.record.keys,
  });
  let settle: () => void = () => undefined;
  trace.settled = new Promise((resolve) => (settle = resolve));
  const body = pumpSseStream({
    upstream,
    first: first.value,
    transformer,
    trace,
    signal,
    logger: deps.logger,
    onEnd: (failure) => {
      // First, so the row is settled even if what follows throws (recordUsage never rejects).
      void recordUsage(deps.logger, trace, request, transformer.usage, () => transformer.deliveredText).finally(settle);
      if (failure) {
        trace.errorCode = failure.code ?? failure.type;
        if (failure.status === 499) trace.statusOverride = 499;
        else deps.health.recordFailure(channel.id);
      }
    },
  });
  return { ok: true, result: { kind: 'stream', body } };
}

/**
 * Usage as the upstream reported it, or counted with a tokenizer and marked estimated. Never
 * rejects: a stream's row waits on it, and the answer has already gone to the caller.
 */
async function recordUsage(
  logger: Logger,
  trace: RelayTrace,
  request: ChatCompletionRequest,
  usage: ReportedUsage | undefined,
  deliveredText: () => string,
): Promise<void> {
  if (usage) {
    trace.promptTokens = usage.promptTokens;
    trace.completionTokens = usage.completionTokens;
    return;
  }
  trace.usageEstimated = true;
  let text = '';
  try {
    text = deliveredText();
    trace.promptTokens = await countPromptTokens(request);
    trace.completionTokens = await countCompletionTokens(text);
  } catch (error) {
    // Charge what the lengths say rather than nothing, and keep the process up.
    logger.error({ requestId: trace.requestId, err: error }, 'usage estimation failed; charging an estimate from lengths');
    trace.promptTokens ||= safely(() => roughPromptTokens(request));
    trace.completionTokens ||= estimateTokensFromChars(text.length);
  }
}

function safely(estimate: () => number): number {
  try {
    return estimate();
  } catch {
    return 0;
  }
}
