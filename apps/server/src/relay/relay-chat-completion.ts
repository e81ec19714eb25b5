import type { ChannelType, ChatCompletionRequest } from '@chat-relay/contract';
import type { ChannelRecord } from '../storage/types';
import {
  chainTransformers,
  redactUpstreamError,
  RelayError,
  type NativeAdapter,
  type PassthroughCarriage,
  type ProviderAdapter,
  type UpstreamFailure,
  type UpstreamRequest,
} from '@chat-relay/wire';
import { adapterFor } from '../providers/adapter-for';
import type { AbortLike } from './caller-gone';
import { chatCompletionsDialect, type CallerDialect } from './caller-dialect';
import type { LiveChannel } from './channel-registry';
import { completionTextOf } from './estimate-usage';
import type { OpenStreams } from './open-streams';
import { chargePassthrough, type PassthroughPlan } from './plan-passthrough';
import { carriageFor, passthroughDecision, policedCandidates, speaksNatively } from './police-candidates';
import { candidatesFor, firstPiece, routeWithRetries, type AttemptOutcome as RetryOutcome, type RoutingDeps } from './route-with-retries';
import { pumpSseStream, type SseBody } from './pump-sse-stream';
import { recordUsage } from './record-usage';
import type { RelayTrace } from './request-context';
import { transportFailure } from './transport-failure';
import type { UpstreamClient } from './upstream-client';

export interface ChatRelayDeps extends RoutingDeps {
  upstream: UpstreamClient;
  /** Streams register here so a shutdown can end them properly. */
  openStreams?: OpenStreams;
}

export type ChatRelayResult =
  | { kind: 'json'; body: Record<string, unknown>; text?: string }
  | { kind: 'stream'; body: SseBody };

/** The request to send (its `model` is what routing looks up) and the name the caller used. */
export interface RelayedRequest {
  /** The request in the hub's format: what routing, estimation and bridged channels use. */
  request: ChatCompletionRequest;
  publicModel: string;
  /** The caller's bytes, when `request` is exactly what they parsed to (see BuildRequestArgs). */
  rawBody?: Buffer;
  /** Who is asking (`token:3`): one caller's failures alone never open a channel's circuit. */
  caller?: string;
  /** The caller's dialect; Chat Completions when not given. */
  dialect?: CallerDialect;
  /** The caller's own request, for channels that speak its dialect: passed through to them. */
  native?: NativeCall;
  /** Set when only such a channel can serve the request (a 400 naming what cannot be bridged). */
  nativeOnly?: RelayError;
  /** What converting to the hub could not keep exactly: logged when a bridged channel is tried. */
  bridgeWarnings?: readonly string[];
  /**
   * Only this channel can serve the request (it keeps state the request refers to: a stored
   * response), with the key that created that state when it still has it; `gone` when it is
   * no longer a candidate.
   */
  pin?: { channelId: number; keyDigest: string | null; gone: RelayError };
  /** Told, once, which channel and key an answer that reached the caller came from. */
  onServed?(served: ServedBy): void;
  /**
   * Hub fields the caller's dialect sends as hints (a Responses caller's `reasoning.effort`,
   * `parallel_tool_calls: false`): a channel that cannot express one refuses it with a 400 naming
   * it, and the field is then left out for that channel, with a warning, instead of failing.
   */
  advisory?: readonly (keyof ChatCompletionRequest)[];
  /**
   * What the relay does itself before a bridged attempt, in place of a hosted tool the channel
   * lacks (a Responses web search): the hub request to send instead. Not called for a channel
   * answering natively; the hook does its work once, however many channels are tried.
   */
  beforeBridged?(request: ChatCompletionRequest, signal: AbortLike): Promise<ChatCompletionRequest>;
  /**
   * What a call that passes through (to a channel speaking the caller's dialect, or the hub request
   * to an OpenAI-compatible one) carries, is policed by, and records (issue 26). Absent: nothing is
   * policed — only the relay's own tests of its core leave it out.
   */
  passthrough?: PassthroughPlan;
}

/** Where a committed answer came from. */
export interface ServedBy {
  channel: LiveChannel;
  key: string;
  /** Passed through in the caller's own dialect, not bridged through the hub. */
  native: boolean;
}

/** A request in a dialect some channel type speaks natively. */
export interface NativeCall {
  channelType: ChannelType;
  adapter: NativeAdapter;
  body: Readonly<Record<string, unknown>>;
  /** The caller's bytes, when `body` is exactly what they parsed to. */
  rawBody?: Buffer;
  /** The dialect's headers as the caller sent them, forwarded to a native channel. */
  headers: Readonly<Record<string, string>>;
  /** What a request of the dialect carries beyond plain tokens (libs/wire's inspection): policed before it passes through. */
  inspect(body: Readonly<Record<string, unknown>>): PassthroughCarriage;
  /** Whether a channel takes the request natively; every channel of `channelType` when absent. */
  serves?(channel: ChannelRecord): boolean;
  /**
   * A channel of the type may lack the endpoint (an OpenAI-compatible server without the
   * Responses API): `test` recognises its answer, `remember` records it on the channel, and the
   * same channel is tried again bridged — no retry spent, nothing held against its circuit.
   */
  endpointMissing?: { test(status: number, text: string, channel: ChannelRecord): boolean; remember(channel: LiveChannel): Promise<void> };
  /** Whether a channel whose passthrough setting refuses the request may take it bridged instead (a Responses `auto` channel). */
  bridgesWhenRefused?(channel: ChannelRecord): boolean;
}

type AttemptOutcome = RetryOutcome<ChatRelayResult>;

/**
 * Above this many tokens asked for, an unstreamed answer's wait for its first byte measures the
 * answer's length as much as the channel: its timeout is not held against the channel.
 */
export const LONG_ANSWER_TOKENS = 4096;

const askedTokens = (request: ChatCompletionRequest): number =>
  Math.max(request.max_tokens ?? 0, request.max_completion_tokens ?? 0);

/** Is this failure evidence that the channel is unhealthy (issue 10 defect 7)? */
function countsAgainstChannel(failure: UpstreamFailure, request: ChatCompletionRequest): boolean {
  if (!failure.channelFault) return false;
  return !(failure.firstByteTimeout && !request.stream && askedTokens(request) > LONG_ANSWER_TOKENS);
}

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
  let candidates = await candidatesFor(deps.registry, request.model, 'chat');
  if (relayed.pin) {
    const { channelId, gone } = relayed.pin;
    candidates = candidates.filter((channel) => channel.id === channelId);
    if (candidates.length === 0) throw gone;
  }
  if (relayed.nativeOnly) {
    // Only a channel that speaks the caller's dialect can serve it: the others are not tried.
    candidates = candidates.filter((channel) => speaksNatively(relayed.native, channel));
    if (candidates.length === 0) throw relayed.nativeOnly;
  }
  // A channel whose setting or price would refuse what the request carries is not tried.
  candidates = policedCandidates(candidates, relayed);
  const missing = relayed.native?.endpointMissing;
  return routeWithRetries(
    deps,
    {
      candidates,
      model: request.model,
      caller: relayed.caller,
      countsAgainstChannel: (failure) => countsAgainstChannel(failure, request),
      attempt: (channel, bridged) => attemptChannel(deps, channel, relayed, trace, signal, bridged),
      endpointMissing: missing && { remember: (channel) => missing.remember(channel), nativeOnly: relayed.nativeOnly },
    },
    trace,
    signal,
  );
}

async function attemptChannel(
  deps: ChatRelayDeps,
  channel: LiveChannel,
  asked: RelayedRequest,
  trace: RelayTrace,
  signal: AbortLike,
  forceBridge: boolean,
): Promise<AttemptOutcome> {
  // What the request carries decides again here: a channel found to lack the native endpoint is tried bridged.
  const decision = passthroughDecision(asked, channel, forceBridge);
  if ('refused' in decision) throw decision.refused;
  const { bridging } = decision;
  const carriage = carriageFor(asked, channel, bridging);
  const relayed = bridging && asked.beforeBridged ? { ...asked, request: await asked.beforeBridged(asked.request, signal), rawBody: undefined } : asked;
  const { request, publicModel } = relayed;
  const pinnedKey = relayed.pin?.keyDigest ? channel.keyWithDigest(relayed.pin.keyDigest) : undefined;
  const key = pinnedKey ?? channel.nextKey();
  const upstreamModel = channel.upstreamModel(request.model);
  trace.channelId = channel.id;
  trace.upstreamModel = upstreamModel;
  // The caller's dialect spoken by the channel: passthrough. Otherwise through the hub, and the
  // answer bridged back when the caller's dialect is not the hub's.
  const native = bridging ? undefined : relayed.native;
  const dialect = relayed.dialect ?? chatCompletionsDialect;
  const bridge = native ? undefined : dialect.bridge;
  // A request the provider cannot express is the caller's error (400), whichever channel.
  const { adapter, upstreamRequest } = buildAttempt(channel, key, upstreamModel, relayed, native);
  const bridgeWarnings = native ? undefined : relayed.bridgeWarnings;
  if (upstreamRequest.warnings || bridgeWarnings?.length) {
    const warnings = [...(bridgeWarnings ?? []), ...(upstreamRequest.warnings ?? [])];
    deps.logger.info({ requestId: trace.requestId, channelId: channel.id, warnings }, 'request translated with warnings');
  }
  trace.attempts += 1;
  deps.health.markAttempt(channel.id);

  let response;
  try {
    const { url, headers, body } = upstreamRequest;
    response = await deps.upstream.post({ channel: channel.record, url, headers, body, signal });
  } catch (error) {
    return { ok: false, key, ...transportFailure(error) };
  }

  try {
    if (response.statusCode >= 400) {
      const text = await response.body.text();
      // Each adapter's error mapper redacts the channel's keys from every field it builds.
      const failure = adapter.mapErrorResponse(response.statusCode, text, channel.record.keys);
      const missing = native?.endpointMissing?.test(response.statusCode, text, channel.record) === true;
      return { ok: false, key, ...failure, ...(missing ? { endpointMissing: true as const } : {}) };
    }
    if (!request.stream) {
      const converted = adapter.convertResponse(await response.body.text(), publicModel);
      if (!converted.ok) {
        // convertResponse knows no keys (a Gemini finishMessage may quote upstream text): redacted here.
        return { ok: false, key, error: redactUpstreamError(converted.error, channel.record.keys), retryable: true, channelFault: true };
      }
      deps.health.recordSuccess(channel.id);
      relayed.onServed?.({ channel, key, native: native !== undefined });
      chargePassthrough(trace, carriage, converted.ran);
      if (native && converted.ran?.created.length) void relayed.passthrough?.expectCreated(channel.id)(converted.ran.created);
      // A native answer is in the caller's dialect: its content blocks (Messages), output items (Responses) or candidates (Gemini) are what was delivered.
      const deliveredText = native
        ? () => JSON.stringify(converted.body['content'] ?? converted.body['output'] ?? converted.body['candidates'] ?? '')
        : () => completionTextOf(converted.body);
      await recordUsage(deps.logger, trace, request, converted.usage, deliveredText);
      const result: ChatRelayResult = bridge
        ? { kind: 'json', body: bridge.completion(converted.body, publicModel) }
        : { kind: 'json', body: converted.body, text: converted.text };
      return { ok: true, result };
    }
  } catch (error) {
    return { ok: false, key, ...transportFailure(error) };
  }

  const upstream = response.body;
  const first = await firstPiece(upstream, key);
  if (!first.ok) return first;
  deps.health.recordSuccess(channel.id);
  relayed.onServed?.({ channel, key, native: native !== undefined });
  const upstreamTransformer = adapter.createStreamTransformer({
    publicModel,
    // A bridge reads the hub's usage chunk to report usage in the caller's dialect.
    callerWantsUsage: bridge !== undefined || request.stream_options?.include_usage === true,
    secrets: channel.record.keys,
  });
  const transformer = bridge ? chainTransformers(upstreamTransformer, bridge.stream(publicModel)) : upstreamTransformer;
  // Registered before the first byte reaches the caller: a reference to what the answer created waits for its record.
  const recordCreated = native ? relayed.passthrough?.expectCreated(channel.id) : undefined;
  let settle: () => void = () => undefined;
  trace.settled = new Promise((resolve) => (settle = resolve));
  const body = pumpSseStream({
    upstream,
    first: first.first,
    transformer,
    framing: dialect.framing,
    trace,
    signal,
    openStreams: deps.openStreams,
    logger: deps.logger,
    onEnd: (failure) => {
      // First, so the row is settled even if what follows throws (recordUsage never rejects).
      void recordUsage(deps.logger, trace, request, transformer.usage, () => transformer.deliveredText).finally(settle);
      // Before the row is written: it waits for `settled`, which the usage above resolves later.
      chargePassthrough(trace, carriage, upstreamTransformer.ran);
      void recordCreated?.(upstreamTransformer.ran?.created ?? []);
      if (failure) {
        // Already redacted: the stream transformers redact what they take from the upstream.
        trace.errorCode = failure.code ?? failure.type;
        if (failure.status === 499) trace.statusOverride = 499;
        else deps.health.recordFailure(channel.id, relayed.caller ?? 'anonymous', false);
      }
    },
  });
  return { ok: true, result: { kind: 'stream', body } };
}

/** The upstream call for one attempt, and the adapter that reads its answer. */
function buildAttempt(
  channel: LiveChannel,
  key: string,
  upstreamModel: string,
  relayed: RelayedRequest,
  native: NativeCall | undefined,
): { adapter: NativeAdapter | ProviderAdapter; upstreamRequest: UpstreamRequest } {
  const { request, rawBody } = relayed;
  if (native) {
    const { body, headers } = native;
    const stream = request.stream === true;
    const upstreamRequest = native.adapter.buildRequest({ channel: channel.record, key, body, rawBody: native.rawBody, upstreamModel, headers, stream });
    return { adapter: native.adapter, upstreamRequest };
  }
  const adapter = adapterFor(channel.record.type);
  const dropped: string[] = [];
  for (let sent = request; ; ) {
    try {
      const upstreamRequest = adapter.buildRequest({ channel: channel.record, key, request: sent, upstreamModel, rawBody: sent === request ? rawBody : undefined });
      if (dropped.length > 0) upstreamRequest.warnings = [...dropped, ...(upstreamRequest.warnings ?? [])];
      return { adapter, upstreamRequest };
    } catch (error) {
      if (!(error instanceof RelayError) || error.status !== 400) throw error;
      const field = relayed.advisory?.find((name) => name === error.param && sent[name] != null);
      if (!field) throw error;
      dropped.push(`${field} not sent to this ${channel.record.type} channel: ${error.message}`);
      sent = { ...sent, [field]: undefined };
    }
  }
}
