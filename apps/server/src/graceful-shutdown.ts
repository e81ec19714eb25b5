import type { Response } from 'express';
import type { Server } from 'node:http';
import type { ResponsesWebSockets } from './dialects/responses/websocket/responses-websockets';
import type { Logger } from './logger';
import { writeJsonError } from './middleware/error-handler';
import { errorDialectOf } from './middleware/error-dialect';
import { serverShuttingDown } from './pipeline/stream/open-streams';
import type { RelayServices } from './services';
import type { Storage } from './storage/types';

export interface ShutdownDeps {
  server: Server;
  services: RelayServices;
  storage: Storage;
  logger: Logger;
  /** How long requests under way may finish on their own (RELAY_SHUTDOWN_GRACE_MS). */
  graceMs: number;
  /** Responses WebSockets: closed as their responses end (1001), the last resort with the connections. */
  webSockets?: Pick<ResponsesWebSockets, 'drain' | 'terminateAll' | 'size'>;
}

/** After the grace and the streams' proper end: the last resort for sockets still open. */
const FORCE_CLOSE_AFTER_MS = 10_000;

/**
 * SIGTERM/SIGINT: stop accepting, let requests finish within the grace, then end every open
 * stream with an error event and a clean end, answer requests still waiting with a 503, wait
 * for their usage rows, close storage. Resolves once everything is closed; the caller exits.
 */
export function gracefulShutdown(deps: ShutdownDeps): (signal: string) => Promise<void> {
  const { server, services, storage, logger } = deps;
  const { inFlight } = services;
  let done: Promise<void> | undefined;
  return (signal) => {
    if (done) return done;
    inFlight.startDraining();
    logger.info({ signal, graceMs: deps.graceMs, inFlight: inFlight.size, webSockets: deps.webSockets?.size ?? 0 }, 'shutting down: no new connections, draining requests');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // A socket waiting for its next request closes now; one with a response under way once it ends.
    deps.webSockets?.drain();
    // Keep-alive sockets become idle as their last response ends: close each as soon as it does.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.closeIdleConnections();

    done = (async () => {
      let graceTimer: NodeJS.Timeout | undefined;
      const graceOver = await Promise.race([
        closed.then(() => false),
        new Promise<boolean>((resolve) => (graceTimer = setTimeout(() => resolve(true), deps.graceMs))),
      ]);
      clearTimeout(graceTimer);
      if (graceOver) {
        const streams = services.openStreams.endAll();
        const waiting = answerWaiting(inFlight.open());
        logger.warn({ streams, waiting }, 'shutdown grace over: open streams ended, waiting requests answered 503');
        const force = setTimeout(() => {
          server.closeAllConnections();
          deps.webSockets?.terminateAll();
        }, FORCE_CLOSE_AFTER_MS);
        await closed;
        clearTimeout(force);
      }
      clearInterval(sweep);
      await inFlight.rowsWritten();
      await services.close();
      await storage.close();
      logger.info('stopped');
    })();
    return done;
  };
}

/** Relayed requests still without an answer get a 503 and their upstream call is dropped. */
function answerWaiting(open: readonly Response[]): number {
  let answered = 0;
  for (const res of open) {
    if (res.headersSent) continue;
    const trace = res.locals.trace;
    res.setHeader('connection', 'close');
    writeJsonError(res, serverShuttingDown(), errorDialectOf(res.req), res.locals.requestId);
    if (trace) {
      trace.errorCode = 'server_shutting_down';
      trace.callerGone?.abort();
    }
    answered++;
  }
  return answered;
}
