import type { RequestHandler } from 'express';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../logger';
import { recordCallerTokens } from '../policy/enforce-token-policy';
import type { RateLimiter } from '../policy/rate-limiter';
import { costOf, type PriceBook } from '../relay/price-book';
import type { InFlightRequests } from '../relay/in-flight-requests';
import { newTrace, type Caller, type RelayTrace } from '../relay/request-context';
import type { UsageLogEntry } from '../storage/types';
import type { UsageRecorder } from '../relay/usage-recorder';
import { storeUnavailable } from './error-handler';
import { matchedRoute, metadataOf } from './route-metadata';

/** The cost at the model's price; if the price cannot be read, the reservation, so quota stays held rather than freed. */
export async function costOrReservation(prices: PriceBook, logger: Logger, trace: RelayTrace): Promise<number> {
  try {
    const price = trace.pricedModel ? await prices.priceOf(trace.pricedModel) : undefined;
    return costOf(price, trace);
  } catch (error) {
    logger.error({ requestId: trace.requestId, err: error }, 'price lookup failed; charging the reservation');
    return trace.quotaReserved;
  }
}

/** How a traced request ended, as its row says it. */
export interface TraceEnding {
  status: number;
  errorCode: string | null;
  /** Micro-USD (see costOrReservation). */
  cost: number;
  clientIp: string | null;
}

/** The usage log row of a traced request: who asked, what it used and cost, how it ended. */
export function usageEntryOf(trace: RelayTrace, caller: Caller | undefined, ending: TraceEnding): UsageLogEntry {
  const token = caller?.kind === 'token' ? caller.token : undefined;
  return {
    createdAt: new Date().toISOString(),
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
    latencyMs: performance.now() - trace.startedAt,
    ttfbMs: trace.ttfbMs,
    clientIp: ending.clientIp,
    attempts: trace.attempts,
  };
}

/**
 * One usage log row per relayed request of a known key, whatever happened to it — refused by
 * policy or validation, failed upstream, streamed, or abandoned by the client — written when the
 * response closes (SPEC §8). Requests without a valid key are counted by bearer-auth instead.
 */
export function usageLog(
  recorder: UsageRecorder,
  prices: PriceBook,
  rateLimiter: RateLimiter,
  logger: Logger,
  inFlight: InFlightRequests,
): RequestHandler {
  return (req, res, next) => {
    const route = matchedRoute(req);
    const metadata = metadataOf(route);
    if (!metadata?.streaming) return next();
    // The database has been away so long that its rows fill the backlog: serve nothing it could not account for.
    if (recorder.backlogFull) return next(storeUnavailable());
    const trace = newTrace(res.locals.requestId, performance.now(), metadata.endpoint);
    res.locals.trace = trace;
    const write = async () => {
      // No row for a caller that never authenticated: anybody could grow the database with them
      // (bearer-auth counts them instead).
      if (res.locals.caller === undefined) return;
      if (trace.settled) await trace.settled;
      // A submitted task's row is written when the task ends (TaskStore.settle), once.
      if (trace.deferredToTask) return;
      const caller = res.locals.caller;
      const clientGone = !res.writableFinished && trace.statusOverride === null;
      const entry = usageEntryOf(trace, caller, {
        status: clientGone ? 499 : (trace.statusOverride ?? res.statusCode),
        errorCode: clientGone ? (trace.errorCode ?? 'client_closed') : trace.errorCode,
        // Aborted and failed streams too: what was delivered (and its prompt) is charged.
        cost: await costOrReservation(prices, logger, trace),
        clientIp: trace.clientIp ?? req.ip ?? req.socket.remoteAddress ?? null,
      });
      recorder.record(entry, route);
      // Its tokens count towards the caller's tpm once the answer has ended (SPEC §4); a count consumed none.
      if (!trace.countOnly) await recordCallerTokens(rateLimiter, caller, trace);
    };
    // One listener does it all: a caller gone before the end aborts the upstream call, and
    // the row is written once the answer (streamed or not) has settled.
    res.once('close', () => {
      if (!res.writableFinished) trace.callerGone?.abort();
      const row = write().catch((error: unknown) => logger.error({ requestId: trace.requestId, err: error }, 'usage row not written'));
      inFlight.closed(res, row);
    });
    inFlight.add(res);
    next();
  };
}
