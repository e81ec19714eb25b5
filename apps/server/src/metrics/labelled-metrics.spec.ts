import { Counter, Histogram, Registry } from 'prom-client';
import { LabelledCounter, LabelledHistogram } from './labelled-metrics';

const BUCKETS = [0.1, 0.5, 1];

/** The same metrics twice: prom-client's own, and the cells that replace them on the hot path. */
function bothRegistries() {
  const theirs = new Registry();
  const ours = new Registry();
  const config = (registry: Registry) => ({ name: 'demo_total', help: 'Demo "counts"', labelNames: ['route', 'status'] as const, registers: [registry] });
  const histogram = (registry: Registry) => ({ name: 'demo_seconds', help: 'Demo', labelNames: ['route'] as const, buckets: BUCKETS, registers: [registry] });
  return {
    theirs,
    ours,
    counters: [new Counter(config(theirs)), new LabelledCounter(config(ours))] as const,
    histograms: [new Histogram(histogram(theirs)), new LabelledHistogram(histogram(ours))] as const,
  };
}

describe('labelled metrics', () => {
  it('are exposed exactly as prom-client exposes the same observations', async () => {
    const { theirs, ours, counters, histograms } = bothRegistries();
    const [counter, cells] = counters;
    const [histogram, histogramCells] = histograms;
    const a = cells.labels('/v1/a', '200');
    const b = cells.labels('/v1/"b"\\\n', '500');
    for (const [labels, cell, by] of [
      [['/v1/"b"\\\n', '500'], b, 0],
      [['/v1/a', '200'], a, 1],
      [['/v1/a', '200'], a, 2.5],
    ] as const) {
      counter.labels(...labels).inc(by);
      cell.inc(by);
    }
    const slow = histogramCells.labels('/v1/a');
    const never = histogramCells.labels('/v1/none');
    for (const value of [0.1, 0.05, 0.5, 0.7, 3, 0]) {
      histogram.labels('/v1/a').observe(value);
      slow.observe(value);
    }
    expect(never.count).toBe(0);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('refuse what prom-client refuses: a negative or infinite increment, an observation that is not a number', () => {
    const { counters, histograms } = bothRegistries();
    const cell = counters[1].labels('/v1/a', '200');
    expect(() => cell.inc(-1)).toThrow(TypeError);
    expect(() => cell.inc(Number.NaN)).toThrow(TypeError);
    expect(() => cell.inc(Infinity)).toThrow(TypeError);
    expect(() => histograms[1].labels('/v1/a').observe(Number.NaN)).toThrow(TypeError);
    expect(cell.value).toBe(0);
  });

  it('forget every series on reset, as prom-client does, until it is observed again', async () => {
    const { theirs, ours, counters, histograms } = bothRegistries();
    const cell = counters[1].labels('/v1/a', '200');
    const timing = histograms[1].labels('/v1/a');
    cell.inc(3);
    timing.observe(0.2);
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    cell.inc();
    counters[0].labels('/v1/a', '200').inc();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it('want a value for every label', () => {
    const { counters } = bothRegistries();
    expect(() => counters[1].labels('/v1/a')).toThrow(/2 label values/);
  });
});
