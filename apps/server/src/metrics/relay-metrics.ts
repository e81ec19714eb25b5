import { Registry } from 'prom-client';
import { metadataOf, type MatchedRoute } from '../middleware/route-metadata';
import type { AttemptObserver, AttemptOutcome } from '../pipeline/route-with-retries';
import type { UsageLogEntry } from '../storage/types';
import { ATTEMPT_OUTCOMES, attemptOutcomeLabel, type AttemptOutcomeLabel } from './attempt-outcome';
import { defineMetrics, type MetricSources, type RelayMetricSet } from './metric-definitions';
import type { CounterCell, HistogramCell } from './labelled-metrics';
import { ModelLabels, OTHER_MODEL } from './model-labels';
import { LimitMetrics } from './limit-metrics';
import { startProcessMetrics } from './process-metrics';

/** The route label of a request no contract route matched (unknown paths, `HEAD /`). */
export const UNMATCHED_ROUTE = 'unmatched';
/** Refusal codes beyond this many share the reason `other` (the codes are the relay's own; a bound all the same). */
const MAX_REJECTION_REASONS = 16;
/** Fallback series (from, to, class) with labels of their own; the rest share `_other`. */
const MAX_FALLBACK_SERIES = 500;
/** The refusals bearer-auth gives, counted from zero so a rate over them exists from the start. */
const KNOWN_REJECTIONS = ['invalid_api_key', 'token_disabled', 'token_expired', 'account_disabled'];
const OTHER_REJECTION = 'other';

/** A counter child shown at 0 before its first increment. */
function zeroed(child: CounterCell): CounterCell {
  child.inc(0);
  return child;
}

export type UsageObservation = Pick<
  UsageLogEntry,
  'requestedModel' | 'channelId' | 'status' | 'latencyMs' | 'ttfbMs' | 'promptTokens' | 'completionTokens' | 'cacheReadTokens' | 'cacheWriteTokens' | 'cost'
>;

/** The series of one route, model and channel: found by map lookups, no label string built per request. */
interface RequestSeries {
  /** route, dialect, model, channel: the request counter's labels but its status. */
  labels: readonly [string, string, string, string];
  latency: HistogramCell;
  ttfb: HistogramCell;
  byStatus: Map<number, CounterCell>;
}

interface RouteSeries {
  route: string;
  dialect: string;
  byModel: Map<string, Map<number | null, RequestSeries>>;
}

interface ModelUsage {
  prompt: CounterCell;
  completion: CounterCell;
  cacheRead: CounterCell;
  cacheWrite: CounterCell;
  cost: CounterCell;
}

export interface RelayMetricsOptions {
  /** Requested models with a label of their own (200 by default); see ModelLabels. */
  maxModels?: number;
}

/**
 * The Prometheus metrics of one app instance, in a registry of its own (tests run many apps in one
 * process). Label children are created once per series and kept, so an observation costs a few
 * map lookups and prom-client's own increment.
 */
export class RelayMetrics implements AttemptObserver {
  readonly registry = new Registry();
  private readonly metrics: RelayMetricSet;
  private readonly models: ModelLabels;
  private readonly routes = new Map<MatchedRoute, RouteSeries>();
  private readonly unmatched: RouteSeries = { route: UNMATCHED_ROUTE, dialect: '', byModel: new Map() };
  private readonly usage = new Map<string, ModelUsage>();
  private readonly attempts = new Map<number, Map<AttemptOutcomeLabel, CounterCell>>();
  private readonly retries = new Map<number, Map<AttemptOutcomeLabel, CounterCell>>();
  private readonly rejections = new Map<string, CounterCell>();
  private readonly fallbacks = new Map<string, CounterCell>();
  /** The periodic limits' refusals and windows (issue 32). */
  readonly limits: LimitMetrics;

  constructor(sources: MetricSources, options: RelayMetricsOptions = {}) {
    this.metrics = defineMetrics(this.registry, sources);
    this.limits = new LimitMetrics(this.registry);
    this.models = new ModelLabels(options.maxModels);
    for (const reason of KNOWN_REJECTIONS) this.rejections.set(reason, zeroed(this.metrics.authRejected.labels(reason)));
  }

  /** The exposition format's content type, as the contract declares it. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** This instance's metrics and the process's, in the text format. */
  async scrape(): Promise<string> {
    // Already running when `main` started them at boot. Otherwise (a test's app) they start at the
    // first scrape, not with the app: their event-loop monitor and GC observer are never stopped and
    // would keep every test file's modules alive after it.
    const [own, process] = await Promise.all([this.registry.metrics(), startProcessMetrics().metrics()]);
    return `${own}\n${process}`;
  }

  /** A relayed request, from its usage row: its only count (the response counter skips requests that have a row). */
  observeUsage(entry: UsageObservation, route: MatchedRoute | undefined): void {
    const model = this.models.labelOf(entry.requestedModel, entry.channelId !== null);
    const series = this.seriesOf(route, model, entry.channelId);
    this.statusOf(series, entry.status).inc();
    series.latency.observe(entry.latencyMs / 1000);
    if (entry.ttfbMs !== null) series.ttfb.observe(entry.ttfbMs / 1000);
    const usage = this.usageOf(model);
    if (entry.promptTokens > 0) usage.prompt.inc(entry.promptTokens);
    if (entry.completionTokens > 0) usage.completion.inc(entry.completionTokens);
    if (entry.cacheReadTokens > 0) usage.cacheRead.inc(entry.cacheReadTokens);
    if (entry.cacheWriteTokens > 0) usage.cacheWrite.inc(entry.cacheWriteTokens);
    if (entry.cost > 0) usage.cost.inc(entry.cost / 1_000_000);
  }

  /** A request with no usage row (management, probes, unknown paths, refused keys), answered `status` after `seconds`. */
  observeResponse(route: MatchedRoute | undefined, status: number, seconds: number): void {
    const series = this.seriesOf(route, '', null);
    this.statusOf(series, status).inc();
    series.latency.observe(seconds);
  }

  upstreamAttempt(channelId: number, outcome: AttemptOutcome<unknown>): void {
    this.outcomeChild(this.attempts, this.metrics.attempts, channelId, attemptOutcomeLabel(outcome)).inc();
  }

  upstreamRetry(failedChannelId: number, failed: AttemptOutcome<unknown>): void {
    this.outcomeChild(this.retries, this.metrics.retries, failedChannelId, attemptOutcomeLabel(failed)).inc();
  }

  /**
   * A request moved on to the next model of its chain. Models are labelled as the requests' are
   * (bounded), and at most MAX_FALLBACK_SERIES pairs get a series of their own; the rest share `_other`.
   */
  modelFallback(from: string, to: string, trigger: string): void {
    const key = `${from}\n${to}\n${trigger}`;
    let child = this.fallbacks.get(key);
    if (!child) {
      const own = this.fallbacks.size < MAX_FALLBACK_SERIES;
      const [fromLabel, toLabel] = own ? [this.models.labelOf(from, true), this.models.labelOf(to, true)] : [OTHER_MODEL, OTHER_MODEL];
      const shared = `${fromLabel}\n${toLabel}\n${trigger}`;
      child = this.fallbacks.get(shared) ?? this.metrics.fallbacks.labels(fromLabel, toLabel, trigger);
      this.fallbacks.set(shared, child);
      if (own) this.fallbacks.set(key, child);
    }
    child.inc();
  }

  /** A request refused with 401 (`code`: the error code, never anything the caller sent). */
  authRejected(code: string): void {
    let child = this.rejections.get(code);
    if (!child) {
      const reason = this.rejections.size < MAX_REJECTION_REASONS ? code : OTHER_REJECTION;
      child = this.rejections.get(reason) ?? this.metrics.authRejected.labels(reason);
      this.rejections.set(reason, child);
    }
    child.inc();
  }

  private routeOf(route: MatchedRoute | undefined): RouteSeries {
    if (!route) return this.unmatched;
    let series = this.routes.get(route);
    if (!series) {
      series = { route: route.path, dialect: metadataOf(route)?.dialect ?? 'openai', byModel: new Map() };
      this.routes.set(route, series);
    }
    return series;
  }

  private seriesOf(route: MatchedRoute | undefined, model: string, channelId: number | null): RequestSeries {
    const routeSeries = this.routeOf(route);
    let byChannel = routeSeries.byModel.get(model);
    if (!byChannel) {
      byChannel = new Map();
      routeSeries.byModel.set(model, byChannel);
    }
    let series = byChannel.get(channelId);
    if (!series) {
      const channel = channelId === null ? '' : String(channelId);
      series = {
        labels: [routeSeries.route, routeSeries.dialect, model, channel],
        latency: this.metrics.latency.labels(routeSeries.route, model, channel),
        ttfb: this.metrics.ttfb.labels(routeSeries.route, model, channel),
        byStatus: new Map(),
      };
      byChannel.set(channelId, series);
    }
    return series;
  }

  private statusOf(series: RequestSeries, status: number): CounterCell {
    let child = series.byStatus.get(status);
    if (!child) {
      child = this.metrics.requests.labels(...series.labels, String(status));
      series.byStatus.set(status, child);
    }
    return child;
  }

  private usageOf(model: string): ModelUsage {
    let usage = this.usage.get(model);
    if (!usage) {
      const { tokens, cost } = this.metrics;
      // At zero from the model's first request: each kind's rate exists from then on.
      usage = {
        prompt: zeroed(tokens.labels(model, 'prompt')),
        completion: zeroed(tokens.labels(model, 'completion')),
        cacheRead: zeroed(tokens.labels(model, 'cache_read')),
        cacheWrite: zeroed(tokens.labels(model, 'cache_write')),
        cost: zeroed(cost.labels(model)),
      };
      this.usage.set(model, usage);
    }
    return usage;
  }

  /** Every outcome of a channel is created at once, at zero, so a rate over any of them exists from its first attempt. */
  private outcomeChild(
    cache: Map<number, Map<AttemptOutcomeLabel, CounterCell>>,
    counter: RelayMetricSet['attempts'],
    channelId: number,
    outcome: AttemptOutcomeLabel,
  ): CounterCell {
    let byOutcome = cache.get(channelId);
    if (!byOutcome) {
      const channel = String(channelId);
      byOutcome = new Map(ATTEMPT_OUTCOMES.map((label) => [label, zeroed(counter.labels(channel, label))] as const));
      cache.set(channelId, byOutcome);
    }
    return byOutcome.get(outcome) as CounterCell;
  }
}
