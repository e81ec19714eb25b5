import type { Registry } from 'prom-client';

/**
 * Counters and histograms for the hot path, registered in a prom-client Registry, which formats
 * them exactly as its own. prom-client's labelled children hash and validate their labels on every
 * increment (and key histogram buckets by their bound as a string): a cell here is a plain object
 * kept by its caller, so an observation is an addition. A series is shown from its first
 * observation on, as prom-client shows it. The text exposition is prom-client's own; its JSON one
 * (`getMetricsAsJSON`, unused here) shows a histogram's series labels apart from `le`.
 */
interface MetricConfig<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  registers: readonly Registry[];
}

type Labels = Record<string, string>;

/** One exported line as prom-client's registry reads it: labels of its own, shared ones, a value. */
interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels?: Labels;
  value: number;
  metricName?: string;
}

interface Exported {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: ExportedValue[];
  aggregator: 'sum';
}

const labelsOf = (names: readonly string[], values: readonly string[]): Labels => {
  if (values.length !== names.length) throw new Error(`expected ${names.length} label values, got ${values.length}`);
  const labels: Labels = {};
  names.forEach((name, index) => (labels[name] = values[index] ?? ''));
  return labels;
};

/** prom-client refuses these too: a counter never goes down, and NaN or Infinity would spoil its series for good. */
function assertCountable(value: number): void {
  if (!(value >= 0 && value < Infinity)) throw new TypeError(`not a valid increment: ${value}`);
}

export class CounterCell {
  value = 0;
  shown = false;

  constructor(
    private readonly family: { shown: CounterCell[] },
    readonly labels: Labels,
  ) {}

  inc(by = 1): void {
    assertCountable(by);
    this.value += by;
    if (!this.shown) {
      this.shown = true;
      this.family.shown.push(this);
    }
  }
}

export class LabelledCounter<L extends string> {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  /** Cells in the order of their first increment: prom-client's order. */
  readonly shown: CounterCell[] = [];
  private readonly labelNames: readonly L[];

  constructor(config: MetricConfig<L>) {
    this.name = config.name;
    this.help = config.help;
    this.labelNames = config.labelNames;
    // The registry only calls get() and reset(); its types name prom-client's own classes alone.
    for (const registry of config.registers) registry.registerMetric(this as never);
  }

  /** A new cell: its caller keeps it (asking twice for the same labels gives two cells of one series). */
  labels(...values: string[]): CounterCell {
    return new CounterCell(this, labelsOf(this.labelNames, values));
  }

  get(): Exported {
    return { name: this.name, help: this.help, type: this.type, values: this.shown.map(({ labels, value }) => ({ labels, value })), aggregator: this.aggregator };
  }

  /** As prom-client's: every series gone until its next increment. */
  reset(): void {
    for (const cell of this.shown.splice(0)) {
      cell.value = 0;
      cell.shown = false;
    }
  }
}

export class HistogramCell {
  readonly counts: number[];
  sum = 0;
  count = 0;
  shown = false;

  constructor(
    private readonly family: { shown: HistogramCell[]; readonly bounds: readonly number[] },
    readonly labels: Labels,
  ) {
    this.counts = new Array<number>(family.bounds.length).fill(0);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`not a valid observation: ${value}`);
    // The first bucket whose bound is at least the value; none past the last bound (only +Inf counts it).
    let index = 0;
    for (const bound of this.family.bounds) {
      if (value <= bound) {
        this.counts[index] = (this.counts[index] ?? 0) + 1;
        break;
      }
      index += 1;
    }
    this.sum += value;
    this.count += 1;
    if (!this.shown) {
      this.shown = true;
      this.family.shown.push(this);
    }
  }
}

export class LabelledHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  readonly bounds: readonly number[];
  readonly shown: HistogramCell[] = [];
  private readonly labelNames: readonly L[];

  constructor(config: MetricConfig<L> & { buckets: readonly number[] }) {
    this.name = config.name;
    this.help = config.help;
    this.labelNames = config.labelNames;
    this.bounds = [...config.buckets].sort((a, b) => a - b);
    for (const registry of config.registers) registry.registerMetric(this as never);
  }

  labels(...values: string[]): HistogramCell {
    return new HistogramCell(this, labelsOf(this.labelNames, values));
  }

  /** As prom-client exports a histogram: cumulative buckets, `+Inf`, sum and count, the series' labels shared. */
  get(): Exported {
    const values: ExportedValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const cell of this.shown) {
      const sharedLabels = cell.labels;
      let cumulative = 0;
      this.bounds.forEach((le, index) => {
        cumulative += cell.counts[index] ?? 0;
        values.push({ labels: { le }, sharedLabels, value: cumulative, metricName: bucket });
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels, value: cell.count, metricName: bucket },
        { labels: {}, sharedLabels, value: cell.sum, metricName: `${this.name}_sum` },
        { labels: {}, sharedLabels, value: cell.count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const cell of this.shown.splice(0)) {
      cell.counts.fill(0);
      cell.sum = 0;
      cell.count = 0;
      cell.shown = false;
    }
  }
}
