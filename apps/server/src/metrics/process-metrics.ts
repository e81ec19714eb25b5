import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { Counter, Gauge, Registry } from 'prom-client';

let shared: Registry | undefined;

const NS_PER_SECOND = 1e9;
const US_PER_SECOND = 1e6;
/** How often the event-loop monitor samples (prom-client's default precision). */
const LAG_RESOLUTION_MS = 10;

/** prom-client's CPU counters count from the moment they are made; these are the process's totals. */
const CPU_COUNTERS = ['process_cpu_user_seconds_total', 'process_cpu_system_seconds_total', 'process_cpu_seconds_total'] as const;
/** prom-client's lag gauges reset at every scrape, and show a sentinel (9.2e9 s) when no sample came in between. */
const LAG_GAUGES = {
  nodejs_eventloop_lag_min_seconds: ['The shortest event-loop delay recorded since start.', (histogram: IntervalHistogram) => histogram.min],
  nodejs_eventloop_lag_max_seconds: ['The longest event-loop delay recorded since start.', (histogram: IntervalHistogram) => histogram.max],
  nodejs_eventloop_lag_mean_seconds: ['The mean event-loop delay since start.', (histogram: IntervalHistogram) => histogram.mean],
  nodejs_eventloop_lag_stddev_seconds: ['The standard deviation of the event-loop delays since start.', (histogram: IntervalHistogram) => histogram.stddev],
  nodejs_eventloop_lag_p50_seconds: ['The median event-loop delay since start.', (histogram: IntervalHistogram) => histogram.percentile(50)],
  nodejs_eventloop_lag_p90_seconds: ['The 90th percentile of the event-loop delays since start.', (histogram: IntervalHistogram) => histogram.percentile(90)],
  nodejs_eventloop_lag_p99_seconds: ['The 99th percentile of the event-loop delays since start.', (histogram: IntervalHistogram) => histogram.percentile(99)],
} as const;

/** One of prom-client's default metrics: registers itself (and whatever it observes) on `registry`. */
type DefaultMetric = (registry: Registry, config: Record<string, never>) => void;

/**
 * prom-client's default metrics, one by one, but for the two this module replaces: its CPU
 * counters and its event-loop monitor. `collectDefaultMetrics` would start a second monitor (a
 * histogram and a timer waking the loop every 10 ms) only for its gauges to be removed. Required
 * by path: the package has no `exports` map, and these are the files `collectDefaultMetrics` itself
 * requires (a spec compares the names against it).
 */
function defaultMetrics(): DefaultMetric[] {
  return [
    require('prom-client/lib/metrics/processStartTime'),
    require('prom-client/lib/metrics/osMemoryHeap'),
    require('prom-client/lib/metrics/processOpenFileDescriptors'),
    require('prom-client/lib/metrics/processMaxFileDescriptors'),
    require('prom-client/lib/metrics/processResources'),
    require('prom-client/lib/metrics/processHandles'),
    require('prom-client/lib/metrics/processRequests'),
    require('prom-client/lib/metrics/heapSizeAndUsed'),
    require('prom-client/lib/metrics/heapSpacesSizeAndUsed'),
    require('prom-client/lib/metrics/version'),
    require('prom-client/lib/metrics/gc'),
  ] as DefaultMetric[];
}

/**
 * Starts the process's own metrics (CPU, heap, event-loop lag, GC, handles) — `main` calls it
 * first thing, so they count from start-up rather than from the first scrape — and answers their
 * registry. One registry for every app in the process, since each `collectDefaultMetrics` call
 * starts a monitor and a GC observer that are never stopped. An app without `main` (a test's)
 * starts them at its first scrape: started with every app, they kept each test file's modules
 * alive after it (~18 MB a file; the server suite ran 2× slower for it).
 */
export function startProcessMetrics(): Registry {
  if (shared) return shared;
  const registry = new Registry();
  for (const register of defaultMetrics()) register(registry, {});
  registerCpuTotals(registry);
  registerLagSinceStart(registry);
  shared = registry;
  return registry;
}

/** Whether {@link startProcessMetrics} ran in this module instance (an app alone never starts them). */
export function processMetricsStarted(): boolean {
  return shared !== undefined;
}

/**
 * The process's CPU time since it started (`process.cpuUsage()` is cumulative), read at each
 * scrape by the first counter for all three, so they agree; the registry collects in the order
 * metrics were registered, so the other two are set before they are read.
 */
function registerCpuTotals(registry: Registry): void {
  const [userName, systemName, totalName] = CPU_COUNTERS;
  const counters: Array<[Counter, (usage: NodeJS.CpuUsage) => number]> = [];
  const user = new Counter({
    name: userName,
    help: 'Total user CPU time spent in seconds.',
    registers: [registry],
    collect() {
      const usage = process.cpuUsage();
      for (const [counter, micros] of counters) {
        counter.reset();
        counter.inc(micros(usage) / US_PER_SECOND);
      }
    },
  });
  const system = new Counter({ name: systemName, help: 'Total system CPU time spent in seconds.', registers: [registry] });
  const total = new Counter({ name: totalName, help: 'Total user and system CPU time spent in seconds.', registers: [registry] });
  counters.push([user, (usage) => usage.user], [system, (usage) => usage.system], [total, (usage) => usage.user + usage.system]);
}

/**
 * Event-loop delay since start-up, from a monitor enabled now and never reset, so two scrapes in
 * quick succession agree. Before the monitor's first sample every gauge reads NaN (Prometheus's
 * "no observation"), never the monitor's empty sentinel.
 */
function registerLagSinceStart(registry: Registry): void {
  const histogram = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  histogram.enable();
  for (const [name, [help, read]] of Object.entries(LAG_GAUGES)) {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(histogram.count === 0 ? Number.NaN : read(histogram) / NS_PER_SECOND);
      },
    });
  }
  new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Lag of event loop in seconds.',
    registers: [registry],
    // How long this scrape waited for the loop: measured now and awaited, so it is this scrape's.
    async collect() {
      const start = process.hrtime.bigint();
      await new Promise((resolve) => setImmediate(resolve));
      this.set(Number(process.hrtime.bigint() - start) / NS_PER_SECOND);
    },
  });
}
