import { Counter, Gauge, type Registry } from 'prom-client';
import { LimitMetricSchema, LimitPeriodSchema, type LimitMetric, type LimitPeriod, type LimitWindow } from '@chat-relay/contract';
import type { LimitOwner } from '../storage/limit-types';

/** Owners' windows with a gauge of their own at most: past it, new owners are left out (the cardinality stays bounded). */
export const MAX_WINDOW_SERIES = 1000;
const OWNERS: readonly LimitOwner[] = ['token', 'account'];

/**
 * The periodic limits in `/metrics` (issue 32), bounded: a per-owner window gauge on every token
 * would be one series per key and window, so the hot path only counts refusals by owner kind,
 * period and metric (18 series at most); what windows use is shown per owner only for owners
 * with limits, as last read back (the token and account routes, the console's pages), and at
 * most {@link MAX_WINDOW_SERIES} series.
 */
export class LimitMetrics {
  private readonly refusals: Counter<'owner' | 'period' | 'metric'>;
  private readonly used: Gauge<'owner' | 'owner_id' | 'period' | 'metric'>;
  private readonly ratio: Gauge<'owner' | 'owner_id' | 'period' | 'metric'>;
  private readonly series = new Set<string>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.refusals = new Counter({
      name: 'relay_limit_refusals_total',
      help: 'Requests refused by a periodic limit (429 insufficient_quota), by owner (token, account), period and metric',
      labelNames: ['owner', 'period', 'metric'] as const,
      registers,
    });
    // Shown at 0 from the start, so a rate over them exists before the first refusal.
    for (const owner of OWNERS) for (const period of LimitPeriodSchema.options) for (const metric of LimitMetricSchema.options) this.refusals.labels(owner, period, metric).inc(0);
    this.used = new Gauge({
      name: 'relay_limit_window_used',
      help: 'What the current window of a periodic limit has used (micro-USD for cost), as last read back on the token and account routes; owners with limits only',
      labelNames: ['owner', 'owner_id', 'period', 'metric'] as const,
      registers,
    });
    this.ratio = new Gauge({
      name: 'relay_limit_window_used_ratio',
      help: 'used / limit of the current window of a periodic limit, as last read back; owners with limits only',
      labelNames: ['owner', 'owner_id', 'period', 'metric'] as const,
      registers,
    });
  }

  /** A request refused by the window of `owner`'s `period` limit on `metric`. */
  readonly refused = (owner: LimitOwner, period: LimitPeriod, metric: LimitMetric): void => {
    this.refusals.labels(owner, period, metric).inc();
  };

  /** An owner's windows as just read back. */
  readonly windowsRead = (owner: LimitOwner, id: number, windows: readonly LimitWindow[]): void => {
    for (const window of windows) {
      const key = `${owner}|${id}|${window.period}|${window.metric}`;
      if (!this.series.has(key)) {
        if (this.series.size >= MAX_WINDOW_SERIES) continue;
        this.series.add(key);
      }
      const labels = [owner, String(id), window.period, window.metric] as const;
      this.used.labels(...labels).set(window.used);
      this.ratio.labels(...labels).set(window.limit > 0 ? window.used / window.limit : 0);
    }
  };
}
