import { noAvailableChannel, upstreamError, type RelayError, type UpstreamFailure } from '@chat-relay/wire';
import type { Logger } from '../logger';
import { keyHint } from '../security/keys';
import { keyRefusalReason } from '../storage/key-states';
import type { AbortLike } from '../core/caller-gone';
import type { ChannelEventSink } from '../alerts/channel-events';
import type { ChannelHealth } from '../channels/channel-health';
import type { ChannelRegistry, LiveChannel } from '../channels/channel-registry';
import { pickChannel } from '../channels/pick-channel';
import type { RelayTrace } from './request-context';
import { transportFailure } from '../channels/upstream/transport-failure';

export interface RoutingDeps {
  registry: ChannelRegistry;
  health: ChannelHealth;
  maxRetries: number;
  logger: Logger;
  /** Hears of every attempt's outcome (metrics). */
  metrics?: AttemptObserver;
  /** Told of a key disabled here (webhooks): by its hint, off the request's path. */
  channelEvents?: Pick<ChannelEventSink, 'keyDisabled'>;
}

/** One try of one channel: the answer committed to the caller, or why not. */
export type AttemptOutcome<R> =
  | { ok: true; result: R }
  | ({ ok: false; key: string; endpointMissing?: true } & UpstreamFailure);

/** Told of each attempt's outcome, and of each attempt made after a failed one, naming the failed one. */
export interface AttemptObserver {
  upstreamAttempt(channelId: number, outcome: AttemptOutcome<unknown>): void;
  upstreamRetry(failedChannelId: number, failed: AttemptOutcome<unknown>): void;
}

export interface RetryPlan<R> {
  candidates: readonly LiveChannel[];
  /** For the 503 when no candidate is available. */
  model: string;
  /** Who is asking (`token:3`): one caller's failures alone never open a channel's circuit. */
  caller?: string;
  /** Whether a failure is evidence that the channel is unhealthy (a channel fault, unless the caller's request explains it). */
  countsAgainstChannel(failure: UpstreamFailure): boolean;
  /** The channel the session last used (prompt-cache affinity): picked first while it may take the request. */
  preferred?: number;
  /** Sends the request to `channel` — through the hub when `bridged` — and commits the answer once its first byte is in. */
  attempt(channel: LiveChannel, bridged: boolean): Promise<AttemptOutcome<R>>;
  /**
   * The channel lacks the native endpoint (an attempt said `endpointMissing`): `remember` records
   * it, and the same channel is tried again bridged — unless `nativeOnly`, then it is skipped.
   */
  endpointMissing?: { remember(channel: LiveChannel): Promise<void>; nativeOnly?: RelayError };
}

/**
 * Routing with retries (SPEC §6), the same for every dialect and endpoint: pick a channel (highest
 * priority, weighted), try it, and on a retryable failure before anything reached the caller try
 * another, up to `maxRetries` times. A rejected key is disabled and costs no retry; the circuit
 * breaker hears of every outcome.
 */
export async function routeWithRetries<R>(deps: RoutingDeps, plan: RetryPlan<R>, trace: RelayTrace, signal: AbortLike): Promise<R> {
  const { candidates } = plan;
  const tried = new Set<number>();
  const available = (id: number) => deps.health.isAvailable(id);
  let lastFailure: RelayError | undefined;
  let failedAttempt: { channelId: number; outcome: AttemptOutcome<R> } | undefined;
  const attempt = async (channel: LiveChannel, bridged: boolean): Promise<AttemptOutcome<R>> => {
    if (failedAttempt) deps.metrics?.upstreamRetry(failedAttempt.channelId, failedAttempt.outcome);
    const outcome = await plan.attempt(channel, bridged);
    deps.metrics?.upstreamAttempt(channel.id, outcome);
    failedAttempt = outcome.ok ? undefined : { channelId: channel.id, outcome };
    return outcome;
  };
  // A rejected key costs no retry: it is disabled for good, so this stays bounded by the keys.
  for (let retriesLeft = deps.maxRetries; retriesLeft >= 0; ) {
    const channel = pickChannel(candidates, tried, available, Math.random, plan.preferred);
    if (!channel) break;
    if (!channel.hasActiveKey) {
      tried.add(channel.id); // its last key was disabled by a concurrent request
      continue;
    }
    let outcome = await attempt(channel, false);
    if (!outcome.ok && outcome.endpointMissing && plan.endpointMissing) {
      // The channel has no such endpoint: it is not unhealthy, and from now on it is bridged.
      deps.logger.info({ requestId: trace.requestId, channelId: channel.id }, 'channel lacks the native endpoint; bridging from now on');
      await rememberMissing(deps, plan.endpointMissing, channel);
      deps.health.releaseTrial(channel.id);
      if (plan.endpointMissing.nativeOnly) {
        tried.add(channel.id);
        lastFailure = plan.endpointMissing.nativeOnly;
        continue;
      }
      outcome = await attempt(channel, true);
    }
    if (outcome.ok) return outcome.result;
    lastFailure = withRetryAfter(outcome.error, outcome.retryAfterMs);
    // The upstream said when to come back: not sent more until then (Azure's retry-after-ms).
    if (outcome.retryAfterMs !== undefined) deps.health.rest(channel.id, outcome.retryAfterMs);
    deps.logger.warn(
      { requestId: trace.requestId, channelId: channel.id, status: outcome.error.status, code: outcome.error.code },
      'upstream attempt failed',
    );
    if (outcome.keyRejected) {
      deps.health.releaseTrial(channel.id); // says nothing of the channel's other keys
      await disableKey(deps, channel, outcome.key, outcome.error);
      if (!channel.hasActiveKey) tried.add(channel.id);
    } else {
      tried.add(channel.id);
      retriesLeft -= 1;
      if (plan.countsAgainstChannel(outcome)) {
        deps.health.recordFailure(channel.id, outcome.callerIndependent ? null : (plan.caller ?? 'anonymous'));
      } else if (outcome.channelFault || outcome.error.status === 499) {
        deps.health.releaseTrial(channel.id);
      } else {
        deps.health.recordSuccess(channel.id); // the upstream answered: a 4xx about the request
      }
    }
    if (!outcome.retryable || signal.aborted) throw lastFailure;
  }
  throw lastFailure ?? noAvailableChannel(plan.model);
}

/** The caller is told when to come back, as the upstream told the relay (when the error says nothing itself). */
function withRetryAfter(error: RelayError, retryAfterMs: number | undefined): RelayError {
  // A 429, or the 502/503 an upstream's own rate limit or overload becomes: the caller may come back then.
  if (retryAfterMs === undefined || error.status < 429 || error.headers['retry-after'] !== undefined) return error;
  error.headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return error;
}

async function rememberMissing(deps: RoutingDeps, endpointMissing: NonNullable<RetryPlan<unknown>['endpointMissing']>, channel: LiveChannel): Promise<void> {
  try {
    await endpointMissing.remember(channel);
  } catch (storeError) {
    deps.logger.error({ err: storeError, channelId: channel.id }, 'could not record that a channel lacks an endpoint');
  }
}

async function disableKey(deps: RoutingDeps, channel: LiveChannel, key: string, error: RelayError): Promise<void> {
  const reason = keyRefusalReason(error);
  deps.logger.warn({ channelId: channel.id, keyHint: keyHint(key), reason }, 'channel key disabled');
  try {
    await deps.registry.disableKey(channel, key, reason);
  } catch (storeError) {
    deps.logger.error({ err: storeError, channelId: channel.id }, 'could not record a disabled channel key');
  }
  deps.channelEvents?.keyDisabled(channel.id, keyHint(key), reason);
}

/**
 * A streamed answer (SSE or bytes) commits only once the upstream has sent its first piece:
 * until then another channel can still be tried without the caller noticing. The piece, or the
 * failed attempt (an upstream that ends before sending anything may be tried elsewhere).
 */
export async function firstPiece(upstream: AsyncIterator<Buffer>, key: string): Promise<{ ok: true; first: Buffer } | Extract<AttemptOutcome<never>, { ok: false }>> {
  let first: IteratorResult<Buffer>;
  try {
    first = await upstream.next();
  } catch (error) {
    return { ok: false, key, ...transportFailure(error) };
  }
  if (first.done) {
    const error = upstreamError('The upstream provider closed the answer before sending anything.', 'empty_stream');
    return { ok: false, key, error, retryable: true, channelFault: true };
  }
  return { ok: true, first: first.value };
}
