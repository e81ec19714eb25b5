import type { RequestHandler } from 'express';
import { performance } from 'node:perf_hooks';
import { matchedRoute } from '../middleware/route-metadata';
import type { RelayMetrics } from './relay-metrics';

/**
 * Counts every request that gets no usage row — management, probes, unknown paths, refused keys —
 * when its response closes (499: the caller left first), under the route template ts-rest matched.
 */
export function countResponses(metrics: Pick<RelayMetrics, 'observeResponse'>): RequestHandler {
  return (req, res, next) => {
    const startedAt = performance.now();
    res.once('close', () => {
      // One source per request: a relayed request of a known caller is counted from its usage row.
      if (res.locals.trace !== undefined && res.locals.caller !== undefined) return;
      metrics.observeResponse(matchedRoute(req), res.writableFinished ? res.statusCode : 499, (performance.now() - startedAt) / 1000);
    });
    next();
  };
}
