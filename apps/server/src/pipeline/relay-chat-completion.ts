import type { ChatCompletionRequest } from '@chat-relay/contract';
import {
  chainTransformers,
  RelayError,
  type Adjustment,
  type ConvertedCompletion,
  type PassthroughCarriage,
  type CreatedObject,
  type ReportedUsage,
  type StreamTransformer,
  type UpstreamFailure,
} from '@chat-relay/wire';
import type { NativeCall } from './native-call';
import type { AbortLike } from '../core/caller-gone';
import { chatCompletionsDialect, type CallerDialect, type StreamFraming } from './caller-dialect';
import type { LiveChannel } from '../channels/channel-registry';
import { completionTextOf, countPromptTokens, roughPromptTokens } from '../billing/estimate-usage';
import type { OpenStreams } from './stream/open-streams';
import { chargePassthrough, type PassthroughPlan } from './passthrough/plan-passthrough';
import { carriageFor, passthroughDecision, policedCandidates, speaksNatively } from './passthrough/police-candidates';
import { candidatesFor } from '../channels/candidates-for';
import { routeWithRetries, type AttemptOutcome as RetryOutcome, type RoutingDeps } from './route-with-retries';
import type { SseBody } from './stream/pump-sse-stream';
import type { RelayTrace } from './request-context';
import type { UsageSources } from './account-usage';
import { attempt, type AnswerReader, type OpenedStream, type PreparedCall, type ServedBy, type UpstreamCall, type WholeAnswer } from './attempt';
import type { UpstreamClient } from '../channels/upstream/upstream-client';
import { isAdapted, refusalToRetry, type AdjustDeps } from './adjust-for-channel';
import { RelayFunctionStream, wholeThroughLoop, type RelayFunction } from './relay-function-loop';
import { buildAttempt, nextModelCall, type AttemptToBuild } from './build-chat-attempt';
import type { SessionAffinity } from '../channels/session-affinity';
import type { HeldPin } from '../cluster/affinity-store';

export interface ChatRelayDeps extends RoutingDeps, AdjustDeps {
  upstream: UpstreamClient;
  /** Streams register here so a shutdown can end them properly. */
  openStreams?: OpenStreams;
  /** Prompt-cache affinity: a session's requests go to the channel and key that served it (issue 29). */
  affinity?: SessionAffinity;
}

export type ChatRelayResult =
  /** `text`: `body` already serialised, sent as is (an endpoint's large answer is its bytes). */
  | { kind: 'json'; body: Record<string, unknown>; text?: string | Buffer }
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
  bridgeWarnings?: readonly Adjustment[];
  /** What the caller's dialect needs of the attempt beyond its request. */
  hooks?: DialectHooks;
  /**
   * What a call that passes through (to a channel speaking the caller's dialect, or the hub request
   * to an OpenAI-compatible one) carries, is policed by, and records (issue 26). Absent: nothing is
   * policed — only the relay's own tests of its core leave it out.
   */
  passthrough?: PassthroughPlan;
  /** The session the request belongs to (see sessionOf): asked only when there is a choice of channels. */
  session?(): string | undefined;
  /** Told what an attempt sends for an answer not streamed (`native`: the caller's own request, passed through): once it is the caller's bytes, what they parsed to may be let go of meanwhile. */
  forwarded?(sent: unknown, native: NativeCall | undefined): void;
}

/** A session pinned to a channel and key: `held` where it was last served, if known. */
interface StickySession {
  affinity: SessionAffinity;
  scope: string;
  held: HeldPin | undefined;
}

/** A dialect's own needs of the attempt (Responses pins its stored state, searches the web itself, sends hints). */
export interface DialectHooks {
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
   * A function in the hub request that the relay answers itself on a bridged attempt, in place of
   * a hosted tool the channel lacks (a Responses web search): see relay-function-loop.ts. A
   * channel answering natively runs the hosted tool itself.
   */
  relayFunction?: RelayFunction;
  /** The most bytes the relay's function adds to the request (a web search's results): reserved for too. */
  bridgedExtraBytes?: number;
}

export type { NativeCall, ServedBy };

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
  const found = candidatesFor(deps.registry, request.model, 'chat');
  let candidates = found instanceof Promise ? await found : found;
  const pin = relayed.hooks?.pin;
  if (pin) {
    const { channelId, gone } = pin;
    candidates = candidates.filter((channel) => channel.id === channelId);
    if (candidates.length === 0) throw gone;
  }
  if (relayed.nativeOnly) {
    // Only a channel that speaks the caller's dialect can serve it: the others are not tried.
    candidates = candidates.filter((channel) => speaksNatively(relayed.native, channel, request.model));
    if (candidates.length === 0) throw relayed.nativeOnly;
  }
  // A channel whose setting or price would refuse what the request carries is not tried.
  candidates = policedCandidates(candidates, relayed);
  const missing = relayed.native?.endpointMissing;
  const sticky = !pin && candidates.length > 1 ? await stickySession(deps.affinity, relayed) : undefined;
  return routeWithRetries(
    deps,
    {
      candidates,
      model: request.model,
      caller: relayed.caller,
      preferred: sticky?.held?.channelId,
      countsAgainstChannel: (failure) => countsAgainstChannel(failure, request),
      // Without a session to keep, the attempt is the channel's own: no wrapper to await.
      attempt: sticky
        ? async (channel, bridged) => {
            const outcome = await attemptChannel(deps, channel, relayed, trace, signal, bridged, sticky);
            // The session's channel failed it: forgotten, the retry's channel (if any) serves and is remembered.
            if (sticky.held && !outcome.ok && outcome.retryable && channel.id === sticky.held.channelId) {
              sticky.affinity.forget(sticky.scope);
              sticky.held = undefined;
            }
            return outcome;
          }
        : (channel, bridged) => attemptChannel(deps, channel, relayed, trace, signal, bridged),
      endpointMissing: missing && { remember: (channel) => missing.remember(channel), nativeOnly: relayed.nativeOnly },
    },
    trace,
    signal,
  );
}

/**
 * The session's pin, scoped to the caller and the model (never shared between tokens): one map
 * lookup when it is known in memory.
 */
async function stickySession(affinity: SessionAffinity | undefined, relayed: RelayedRequest): Promise<StickySession | undefined> {
  const session = affinity && relayed.session?.();
  if (!affinity || session === undefined) return undefined;
  const scope = `${relayed.caller ?? 'anonymous'}|${relayed.request.model}|${session}`;
  return { affinity, scope, held: await affinity.lookup(scope) };
}

/**
 * One channel tried: whether it passes the request through or bridges it decided, then the one
 * attempt. A refusal is thrown at once; routing awaits the attempt in an async function, where it
 * rejects as before.
 */
function attemptChannel(
  deps: ChatRelayDeps,
  channel: LiveChannel,
  relayed: RelayedRequest,
  trace: RelayTrace,
  signal: AbortLike,
  forceBridge: boolean,
  sticky?: StickySession,
): Promise<AttemptOutcome> {
  // What the request carries decides again here: a channel found to lack the native endpoint is tried bridged.
  const decision = passthroughDecision(relayed, channel, forceBridge);
  if ('refused' in decision) throw decision.refused;
  const { bridging } = decision;
  const carriage = carriageFor(relayed, channel, bridging);
  const hooks = relayed.hooks;
  // The caller's dialect spoken by the channel: passthrough. Otherwise through the hub, and the
  // answer bridged back when the caller's dialect is not the hub's.
  const native = bridging ? undefined : relayed.native;
  // The key that created stored state, else the key the session's cache is under.
  const digest = hooks?.pin?.keyDigest ?? (sticky?.held?.channelId === channel.id ? sticky.held.keyDigest : undefined);
  const call: UpstreamCall<ChatRelayResult> = {
    model: relayed.request.model,
    caller: relayed.caller ?? 'anonymous',
    pinnedKey: digest ? (pinned) => pinned.keyWithDigest(digest) : undefined,
    onServed: sticky
      ? (served) => {
          hooks?.onServed?.(served);
          sticky.affinity.served(sticky.scope, sticky.held, { channelId: served.channel.id, keyDigest: served.channel.digestOf(served.key) });
        }
      : hooks?.onServed,
    prepare: ({ key, upstreamModel }) =>
      prepareChat(deps, { channel, key, upstreamModel, relayed, native, carriage, adapted: !native && isAdapted(relayed.dialect, channel), signal }, trace),
  };
  return attempt(deps, channel, call, trace, signal);
}

interface ChatAttempt extends AttemptToBuild {
  relayed: RelayedRequest;
  carriage: PassthroughCarriage | undefined;
  signal: AbortLike;
}

/** The chat request for one channel — passed through, or through the hub — and how its answer reaches the caller's dialect. */
function prepareChat(deps: ChatRelayDeps, attempt: ChatAttempt, trace: RelayTrace): PreparedCall<ChatRelayResult> {
  const { channel, relayed, native, carriage } = attempt;
  const { request, publicModel } = relayed;
  const dialect = relayed.dialect ?? chatCompletionsDialect;
  const bridge = native ? undefined : dialect.bridge;
  const { adapter, upstreamRequest, sent, adjustments } = buildAttempt(deps, attempt);
  if (!request.stream) relayed.forwarded?.(upstreamRequest.body, native);
  // The last attempt's: the served one's when an answer reaches the caller.
  trace.adjustments = adjustments;
  const bridgeWarnings = native ? undefined : relayed.bridgeWarnings;
  const secrets = channel.record.keys;
  /** A whole answer as the attempt reads it. */
  const wholeAnswer = (converted: Extract<ConvertedCompletion, { ok: true }>): WholeAnswer<ChatRelayResult> => {
    // A native answer is in the caller's dialect: its content blocks (Messages), output items (Responses) or candidates (Gemini) are what was delivered.
    const deliveredText = native
      ? () => JSON.stringify(converted.body['content'] ?? converted.body['output'] ?? converted.body['candidates'] ?? '')
      : () => completionTextOf(converted.body);
    return {
      ok: true,
      usage: usageOf(request, converted.usage, deliveredText),
      served: () => {
        chargePassthrough(trace, carriage, converted.ran);
        if (native && converted.ran?.created.length) void relayed.passthrough?.expectCreated(channel.id)(converted.ran.created);
      },
      result: () =>
        bridge ? { kind: 'json', body: bridge.completion(converted.body, publicModel) } : { kind: 'json', body: converted.body, text: converted.text },
    };
  };
  // The relay's own function, answered in a loop of model calls: bridged answers only.
  const fn = !native && bridge ? relayed.hooks?.relayFunction : undefined;
  const next = fn && nextModelCall(deps, attempt, adapter);
  const answer: AnswerReader<ChatRelayResult> = !request.stream
    ? {
        kind: 'whole',
        read: (body) => {
          const converted = adapter.convertResponse(body.toString('utf8'), publicModel);
          if (!converted.ok) return converted;
          if (!fn || !next) return wholeAnswer(converted);
          // Only an answer with the relay's own function waits for more model calls (most do not: no promise made for them).
          const convert = (answered: string) => adapter.convertResponse(answered, publicModel);
          return wholeThroughLoop(converted, { request, fn, next, convert, signal: attempt.signal }).then(
            (looped) => (looped.ok ? wholeAnswer(looped) : looped),
            (error: unknown) => {
              if (!(error instanceof RelayError)) throw error;
              return { ok: false as const, error };
            },
          );
        },
      }
    : {
        kind: 'sse',
        open: () => {
          const upstreamTransformer = adapter.createStreamTransformer({
            publicModel,
            // A bridge reads the hub's usage chunk to report usage in the caller's dialect.
            callerWantsUsage: bridge !== undefined || request.stream_options?.include_usage === true,
            secrets,
          });
          const newCall = () => adapter.createStreamTransformer({ publicModel, callerWantsUsage: true, secrets });
          const loop =
            fn && next && bridge
              ? new RelayFunctionStream({ fn, request, first: upstreamTransformer, newCall, bridge: bridge.stream(publicModel), next, publicModel, signal: attempt.signal })
              : undefined;
          const transformer = loop ?? (bridge ? chainTransformers(upstreamTransformer, bridge.stream(publicModel)) : upstreamTransformer);
          // Registered before the first byte reaches the caller: a reference to what the answer created waits for its record.
          const recordCreated = native ? relayed.passthrough?.expectCreated(channel.id) : undefined;
          return chatStream({ transformer, upstreamTransformer, framing: dialect.framing, request, trace, carriage, recordCreated, loop });
        },
      };
  return {
    request: upstreamRequest,
    // Most requests have none: no array made for them.
    warnings: bridgeWarnings?.length || upstreamRequest.warnings ? [...(bridgeWarnings ?? []), ...(upstreamRequest.warnings ?? [])] : undefined,
    native: native !== undefined,
    retryWithout:
      attempt.adapted && !attempt.refused
        ? (status, text) => {
            const refused = refusalToRetry(deps, sent, channel, attempt.upstreamModel, status, text);
            return refused && prepareChat(deps, { ...attempt, refused }, trace);
          }
        : undefined,
    mapError: (status, text) => {
      // Each adapter's error mapper redacts the channel's keys from every field it builds.
      const failure = adapter.mapErrorResponse(status, text, secrets, attempt.upstreamModel);
      const missing = native?.endpointMissing?.test(status, text, channel.record) === true;
      return missing ? { ...failure, endpointMissing: true } : failure;
    },
    answer,
  };
}

/** What a call's usage is counted from: what the upstream reported, else the request and the text delivered. */
const usageOf = (request: ChatCompletionRequest, usage: ReportedUsage | undefined, deliveredText: () => string): UsageSources => ({
  reported: usage,
  countPrompt: () => countPromptTokens(request),
  roughPrompt: () => roughPromptTokens(request),
  deliveredText,
});

interface ChatStreamParts {
  /** The caller's: the upstream's events through the bridge (or a relay function's loop), if any. */
  transformer: StreamTransformer;
  /** The upstream's own, which knows the hosted tools the channel ran. */
  upstreamTransformer: StreamTransformer;
  framing: StreamFraming;
  /** The hub request: the prompt of an answer cut short is counted from it. */
  request: ChatCompletionRequest;
  trace: RelayTrace;
  carriage: PassthroughCarriage | undefined;
  recordCreated: ((created: readonly CreatedObject[]) => Promise<void>) | undefined;
  loop: RelayFunctionStream | undefined;
}

/**
 * A committed chat stream, made apart from prepareChat: what it keeps is kept for as long as the
 * answer streams, and prepareChat's closures hold the attempt — its adapter, the request as sent,
 * and through them the pipeline's hops (issue 30).
 */
function chatStream(parts: ChatStreamParts): OpenedStream<ChatRelayResult> {
  const { transformer, upstreamTransformer, request, trace, carriage, recordCreated, loop } = parts;
  return {
    transformer,
    framing: parts.framing,
    usage: () => usageOf(request, transformer.usage, () => transformer.deliveredText),
    ended: () => {
      // Before the row is written: it waits for `settled`, which the usage resolves later.
      chargePassthrough(trace, carriage, upstreamTransformer.ran);
      void recordCreated?.(upstreamTransformer.ran?.created ?? []);
    },
    result: (body) => ({ kind: 'stream', body }),
    ...(loop ? { next: (emit: Parameters<RelayFunctionStream['next']>[0]) => loop.next(emit) } : {}),
  };
}
