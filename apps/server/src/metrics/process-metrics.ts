import { collectDefaultMetrics, Registry } from 'prom-client';

let shared: Registry | undefined;

/**
 * The process's own metrics (CPU, heap, event-loop lag, GC, handles): one registry for every app
 * in the process, since each `collectDefaultMetrics` call starts an event-loop monitor and a GC
 * observer that are never stopped — tests create hundreds of apps in one process.
 */
export function processRegistry(): Registry {
  if (!shared) {
    shared = new Registry();
    collectDefaultMetrics({ register: shared });
  }
  return shared;
}
