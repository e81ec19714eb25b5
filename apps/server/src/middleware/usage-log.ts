import type { RequestHandler } from 'express';
import { performance } from 'node:perf_hooks';
import { settle, type SettleDeps } from '../pipeline/settle';
import type { InFlightRequests } from '../pipeline/in-flight-requests';
import { newTrace } from '../pipeline/request-context';
import { storeUnavailable } from './error-handler';
import { matchedRoute, metadataOf } from './route-metadata';

/** Opens each relayed request's trace; when its response closes, hands it to settle (pipeline/settle.ts, SPEC §8). */
export function usageLog(deps: SettleDeps, inFlight: InFlightRequests): RequestHandler {
  return (req, res, next) => {
    const route = matchedRoute(req);
    const metadata = metadataOf(route);
    if (!metadata?.streaming) return next();
    // The database has been away so long that its rows fill the backlog: serve nothing it could not account for.
    if (deps.recorder.backlogFull) return next(storeUnavailable());
    const trace = (res.locals.trace = newTrace(res.locals.requestId, performance.now(), metadata.endpoint));
    // Asked once the answer has settled: a stream may have broken, or lost its caller.
    const outcome = () => {
      const clientGone = !res.writableFinished && trace.statusOverride === null;
      const status = clientGone ? 499 : (trace.statusOverride ?? res.statusCode);
      const errorCode = clientGone ? (trace.errorCode ?? 'client_closed') : trace.errorCode;
      return { status, errorCode, clientIp: trace.clientIp ?? req.ip ?? req.socket.remoteAddress ?? null };
    };
    // One listener does it all: a caller gone before the end aborts the upstream call, and the row
    // is settled once the answer has. No row for a caller that never authenticated (bearer-auth counts them).
    res.once('close', () => {
      if (!res.writableFinished) trace.callerGone?.abort();
      const caller = res.locals.caller;
      const ending = { trace, caller, outcome, route, holdsTpm: !trace.countOnly };
      const failed = (error: unknown) => deps.logger.error({ requestId: trace.requestId, err: error }, 'usage row not written');
      // Most rows are queued at once (settle answers without a promise); one that waits is tracked.
      let row: Promise<void> | undefined;
      try {
        const settling = caller === undefined ? undefined : settle(deps, ending);
        if (settling instanceof Promise) row = settling.catch(failed);
      } catch (error) {
        failed(error);
      }
      inFlight.closed(res, row);
    });
    inFlight.add(res);
    next();
  };
}
