import { performance } from 'node:perf_hooks';
import type { Logger } from '../logger';
import type { MatchedRoute } from '../core/matched-route';
import { recordCallerTokens } from '../policy/enforce-token-policy';
import type { RateLimiter } from '../policy/rate-limiter';
import { costOf, NOT_KNOWN_YET, type AppliedPrice, type PriceBook } from '../billing/price-book';
import type { RelayTrace } from './request-context';
import type { Caller } from '../auth/caller';
import type { UsageRecorder } from './usage-recorder';
import type { UsageLogEntry } from '../storage/types';

export interface SettleDeps {
  recorder: UsageRecorder;
  prices: PriceBook;
  rateLimiter: RateLimiter;
  logger: Logger;
}

/** A traced request that has ended, as its row says it. */
export interface Ending {
  trace: RelayTrace;
  caller: Caller | undefined;
  /** How it ended: asked once a committed stream has ended too (it may have broken, or lost its caller). */
  outcome(): Pick<TraceEnding, 'status' | 'errorCode' | 'clientIp'>;
  /** The route it came by, for metrics. */
  route: MatchedRoute | undefined;
  /** Its tokens count towards the caller's tpm (SPEC §4): not a count, nor a search run inside another request. */
  holdsTpm: boolean;
}

/**
 * Where a request's cost is settled (SPEC §8): once its answer has ended (a stream's usage is
 * counted), its row — the cost at the model's price, against the quota reserved — is handed to the
 * UsageRecorder, which writes it and settles the reservation with it; then its tokens are held
 * against the caller's tpm. A submitted task's row is the task's, written when it ends (TaskStore).
 */
export function settle(deps: SettleDeps, ending: Ending): void | Promise<void> {
  const { settled } = ending.trace;
  // A stream that has ended already (every stream whose caller stayed to its end) is settled at once, without a promise.
  if (settled && !(settled instanceof Settlement && settled.done)) return Promise.resolve(settled).then(() => settleEnded(deps, ending));
  return settleEnded(deps, ending);
}

function settleEnded(deps: SettleDeps, ending: Ending): void | Promise<void> {
  const { trace } = ending;
  if (trace.deferredToTask) return;
  // Aborted and failed streams too: what was delivered (and its prompt) is charged.
  const cost = knownCost(deps.prices, trace);
  if (cost === undefined) return costOrReservation(deps.prices, deps.logger, trace).then((looked) => recordRow(deps, ending, looked));
  return recordRow(deps, ending, cost);
}

function recordRow(deps: SettleDeps, ending: Ending, cost: number): void | Promise<void> {
  const { trace } = ending;
  const { status, errorCode, clientIp } = ending.outcome();
  const entry = usageEntryOf(trace, ending.caller, { status, errorCode, clientIp, cost });
  deps.recorder.record(entry, ending.route);
  if (ending.holdsTpm) return recordCallerTokens(deps.rateLimiter, ending.caller, trace);
}

/**
 * A committed answer's end, which its usage row waits for (RelayTrace.settled). A promise is made
 * only if something waits before the end: the row of a stream whose caller stayed to its end is
 * settled after it, and then waits for nothing (issue 30: two promises and a turn fewer a stream).
 */
export class Settlement implements PromiseLike<void> {
  private ended = false;
  private waiting: Promise<void> | undefined;
  private release: (() => void) | undefined;

  get done(): boolean {
    return this.ended;
  }

  end(): void {
    this.ended = true;
    this.release?.();
  }

  then<Fulfilled = void, Rejected = never>(
    onFulfilled?: ((value: void) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onRejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): PromiseLike<Fulfilled | Rejected> {
    this.waiting ??= this.ended ? Promise.resolve() : new Promise((resolve) => (this.release = resolve));
    return this.waiting.then(onFulfilled, onRejected);
  }
}

/** Makes the row wait for a committed stream: the function says the stream has ended and its usage is counted. */
export function awaitSettlement(trace: RelayTrace): () => void {
  const settlement = new Settlement();
  trace.settled = settlement;
  return () => settlement.end();
}

/**
 * The cost at the price of the upstream model that served (PriceBook.priceFor: an alias priced on
 * purpose, else the upstream model's table entry, else its catalogue list price), noted on the
 * trace as `pricedBy`; if the price cannot be read, the reservation, so quota stays held rather
 * than freed. Nothing served upstream (refused before, or no channel answered): nothing to price.
 */
export async function costOrReservation(prices: PriceBook, logger: Logger, trace: RelayTrace): Promise<number> {
  try {
    const publicModel = trace.pricedModel;
    if (!publicModel) return 0;
    return chargeAt(trace, await prices.priceFor(publicModel, trace.upstreamModel ?? publicModel, trace.endpoint));
  } catch (error) {
    logger.error({ requestId: trace.requestId, err: error }, 'price lookup failed; charging the reservation');
    return trace.quotaReserved;
  }
}

/**
 * costOrReservation's answer when the price book knows it without a promise (every request but a
 * model's first); else undefined — and on any fault, so that costOrReservation handles it.
 */
function knownCost(prices: PriceBook, trace: RelayTrace): number | undefined {
  const publicModel = trace.pricedModel;
  if (!publicModel) return 0;
  try {
    const applied = prices.knownPriceFor(publicModel, trace.upstreamModel ?? publicModel, trace.endpoint);
    return applied === NOT_KNOWN_YET ? undefined : chargeAt(trace, applied);
  } catch {
    return undefined;
  }
}

/** The cost at `applied`, noted on the trace as what priced it (the row's `priced_by`). */
function chargeAt(trace: RelayTrace, applied: AppliedPrice | undefined): number {
  const cost = costOf(applied?.price, trace);
  trace.pricedBy = applied?.pricedBy ?? null;
  return cost;
}

/** How a traced request ended, as its row says it. */
export interface TraceEnding {
  status: number;
  errorCode: string | null;
  /** Micro-USD (see costOrReservation). */
  cost: number;
  clientIp: string | null;
}

let isoSecond = -1;
let isoSecondPrefix = '';

/**
 * `new Date().toISOString()`, which was the costliest part of building a row: the text up to the
 * second is kept, and only the milliseconds are written for each row.
 */
export function isoNow(now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoSecondPrefix = new Date(second * 1000).toISOString().slice(0, 20);
  }
  const millis = now - second * 1000;
  return `${isoSecondPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/** The usage log row of a traced request: who asked, what it used and cost, how it ended. */
export function usageEntryOf(trace: RelayTrace, caller: Caller | undefined, ending: TraceEnding): UsageLogEntry {
  const token = caller?.kind === 'token' ? caller.token : undefined;
  return {
    createdAt: isoNow(),
    requestId: trace.requestId,
    tokenId: token?.id ?? null,
    accountId: token?.accountId ?? (caller?.kind === 'admin' ? caller.account.id : null),
    requestedModel: trace.requestedModel,
    upstreamModel: trace.upstreamModel,
    channelId: trace.channelId,
    assistantId: trace.assistantId,
    stream: trace.stream,
    status: ending.status,
    errorCode: ending.errorCode,
    promptTokens: trace.promptTokens,
    completionTokens: trace.completionTokens,
    cacheReadTokens: trace.cacheReadTokens,
    cacheWriteTokens: trace.cacheWriteTokens,
    endpoint: trace.endpoint,
    units: trace.units,
    usageEstimated: trace.usageEstimated,
    cost: ending.cost,
    quotaReserved: trace.quotaReserved,
    windowsReserved: trace.windowsReserved,
    latencyMs: performance.now() - trace.startedAt,
    ttfbMs: trace.ttfbMs,
    clientIp: ending.clientIp,
    attempts: trace.attempts,
    pricedBy: trace.pricedBy,
    fallbackPath: trace.fallbackPath,
  };
}
