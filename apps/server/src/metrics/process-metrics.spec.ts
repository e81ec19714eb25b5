import { collectDefaultMetrics, Registry } from 'prom-client';
import { RelayMetrics } from './relay-metrics';
import { startProcessMetrics } from './process-metrics';
import type { MetricSources } from './metric-definitions';
import { Exposition } from '../../test/metrics/testing/exposition';

const idleSources: MetricSources = { openStreams: () => 0, circuits: async () => [] };
const scrape = async (metrics: RelayMetrics) => new Exposition(await metrics.scrape());
/** prom-client's "no sample yet" minimum: Number.MAX_SAFE_INTEGER-ish nanoseconds, 9.2e9 s. */
const SENTINEL_SECONDS = 9e9;

/** Keeps the CPU busy for `ms` (the event loop blocked, as real work would). */
function burnCpu(ms: number): void {
  const until = performance.now() + ms;
  let spin = 0;
  while (performance.now() < until) spin += Math.sqrt(spin + 1);
  expect(spin).toBeGreaterThan(0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// One spec file is one module registry: these run in order in a process whose metrics nobody scraped yet.
describe('issue 26: process metrics are collected from start-up, not from the first scrape', () => {
  // What `main` does first thing at boot.
  beforeAll(() => startProcessMetrics());

  it('counts the CPU seconds spent before the first scrape', async () => {
    const metrics = new RelayMetrics(idleSources);
    burnCpu(400);
    const scraped = await scrape(metrics);
    const total = scraped.value('process_cpu_seconds_total');
    // The whole process's CPU since it started: at least the work just done.
    expect(total).toBeGreaterThanOrEqual(0.35);
    expect(scraped.value('process_cpu_user_seconds_total') + scraped.value('process_cpu_system_seconds_total')).toBeCloseTo(total, 6);
    expect(total).toBeLessThanOrEqual(process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6);
  });

  it('never reports the monitor’s empty-histogram sentinel as the event-loop lag minimum, even on scrapes in quick succession', async () => {
    const metrics = new RelayMetrics(idleSources);
    await sleep(50);
    for (let scrapeNumber = 0; scrapeNumber < 3; scrapeNumber++) {
      const scraped = await scrape(metrics);
      const min = scraped.value('nodejs_eventloop_lag_min_seconds');
      const max = scraped.value('nodejs_eventloop_lag_max_seconds');
      const p99 = scraped.value('nodejs_eventloop_lag_p99_seconds');
      expect({ scrapeNumber, min, belowSentinel: min < SENTINEL_SECONDS }).toEqual({ scrapeNumber, min: expect.any(Number), belowSentinel: true });
      expect(min).toBeGreaterThan(0);
      expect(min).toBeLessThan(1);
      expect(max).toBeGreaterThanOrEqual(min);
      expect(p99).toBeGreaterThanOrEqual(min);
    }
  });

  it('keeps the lag of work done between scrapes: a blocked loop shows in the maximum', async () => {
    const metrics = new RelayMetrics(idleSources);
    await scrape(metrics);
    burnCpu(150);
    await sleep(30);
    expect((await scrape(metrics)).value('nodejs_eventloop_lag_max_seconds')).toBeGreaterThanOrEqual(0.1);
  });

  it('reads NaN (no observation yet), not a sentinel, when scraped before the monitor took its first sample', async () => {
    let fresh: typeof import('./process-metrics') | undefined;
    jest.isolateModules(() => {
      fresh = jest.requireActual<typeof import('./process-metrics')>('./process-metrics');
    });
    if (!fresh) throw new Error('process-metrics did not load');
    const scraped = new Exposition(await fresh.startProcessMetrics().metrics());
    // prom-client writes NaN as `Nan`, which Prometheus reads (its float parser ignores case).
    const values = scraped.family('nodejs_eventloop_lag_min_seconds').metrics.map((sample) => Number(sample.value));
    expect(values).toEqual([Number.NaN]);
    expect(scraped.value('process_cpu_seconds_total')).toBeGreaterThan(0.35);
  });
});

describe("prom-client's default metrics, with one event-loop monitor", () => {
  it('names every family collectDefaultMetrics names, with the same types', async () => {
    const theirs = new Registry();
    collectDefaultMetrics({ register: theirs });
    const [ours, reference] = [new Exposition(await startProcessMetrics().metrics()), new Exposition(await theirs.metrics())];
    expect([...ours.types].sort()).toEqual([...reference.types].sort());
    theirs.clear();
  });

  it("the scrape's own event-loop lag, never prom-client's 0 before a first measurement", async () => {
    let fresh: typeof import('./process-metrics') | undefined;
    jest.isolateModules(() => {
      fresh = jest.requireActual<typeof import('./process-metrics')>('./process-metrics');
    });
    if (!fresh) throw new Error('process-metrics did not load');
    const registry = fresh.startProcessMetrics();
    const lag = new Exposition(await registry.metrics()).value('nodejs_eventloop_lag_seconds');
    expect(lag).toBeGreaterThan(0);
    expect(lag).toBeLessThan(1);
    // A loop held up while the scrape waits shows in that scrape.
    const scrape = registry.metrics();
    burnCpu(120);
    expect(new Exposition(await scrape).value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0.1);
  });
});

describe('an app alone does not start the process metrics (only main and the first scrape do)', () => {
  it('leaves the never-stopped monitor and GC observer unstarted until scraped: they would keep a test file\'s modules alive', async () => {
    let fresh: { processMetrics: typeof import('./process-metrics'); relayMetrics: typeof import('./relay-metrics') } | undefined;
    jest.isolateModules(() => {
      fresh = {
        processMetrics: jest.requireActual<typeof import('./process-metrics')>('./process-metrics'),
        relayMetrics: jest.requireActual<typeof import('./relay-metrics')>('./relay-metrics'),
      };
    });
    if (!fresh) throw new Error('the metrics modules did not load');
    const metrics = new fresh.relayMetrics.RelayMetrics(idleSources);
    expect(fresh.processMetrics.processMetricsStarted()).toBe(false);
    const scraped = new Exposition(await metrics.scrape());
    expect(fresh.processMetrics.processMetricsStarted()).toBe(true);
    expect(scraped.value('process_cpu_seconds_total')).toBeGreaterThan(0);
  });
});
