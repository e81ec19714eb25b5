import { Gauge, type Registry } from 'prom-client';
import { LabelledCounter, LabelledHistogram } from './labelled-metrics';
import type { CircuitState } from '../channels/channel-health';

/** Whole requests: an API call in milliseconds, a long streamed answer in minutes. */
export const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600];
/** Until the first byte of the answer: what a chat user waits before text appears. */
export const TTFB_BUCKETS_S = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 8, 13, 20, 30, 60];

/** The circuit gauge's value of each state: higher is less available. */
export const CIRCUIT_STATE_VALUE: Readonly<Record<CircuitState, number>> = { closed: 0, half_open: 1, open: 2 };

/** What the gauges read when Prometheus scrapes, so the hot path keeps no count of them. */
export interface MetricSources {
  /** Streamed answers open now. */
  openStreams(): number;
  /** Each channel's circuit state now. */
  circuits(): Promise<Iterable<readonly [channelId: number, state: CircuitState]>>;
}

/** Every `relay_` metric, registered in `registry` (one per app instance, never prom-client's global one). */
export function defineMetrics(registry: Registry, sources: MetricSources) {
  const registers = [registry];
  return {
    requests: new LabelledCounter({
      name: 'relay_requests_total',
      help: 'Requests answered, by contract route template, dialect, requested model, channel id and HTTP status (499: the caller left)',
      labelNames: ['route', 'dialect', 'model', 'channel', 'status'] as const,
      registers,
    }),
    latency: new LabelledHistogram({
      name: 'relay_request_duration_seconds',
      help: 'Time from the request to the end of its answer (a stream: its last byte)',
      labelNames: ['route', 'model', 'channel'] as const,
      buckets: LATENCY_BUCKETS_S,
      registers,
    }),
    ttfb: new LabelledHistogram({
      name: 'relay_time_to_first_byte_seconds',
      help: 'Time from a relayed request to the first byte of its answer, for answers that had one',
      labelNames: ['route', 'model', 'channel'] as const,
      buckets: TTFB_BUCKETS_S,
      registers,
    }),
    attempts: new LabelledCounter({
      name: 'relay_upstream_attempts_total',
      help: 'Requests sent to a channel, by channel id and outcome',
      labelNames: ['channel', 'outcome'] as const,
      registers,
    }),
    retries: new LabelledCounter({
      name: 'relay_upstream_retries_total',
      help: 'Attempts made again after a failed one, by the failed attempt’s channel id and outcome',
      labelNames: ['channel', 'outcome'] as const,
      registers,
    }),
    fallbacks: new LabelledCounter({
      name: 'relay_model_fallbacks_total',
      help: 'Moves of a request to the next model of its fallback chain, by the model left, the model tried next and the failure class (issue 32)',
      labelNames: ['from', 'to', 'trigger'] as const,
      registers,
    }),
    tokens: new LabelledCounter({
      name: 'relay_tokens_total',
      help: 'Tokens of relayed requests by requested model; kind prompt is the whole prompt, cache_read and cache_write the parts of it the provider cache read or wrote',
      labelNames: ['model', 'kind'] as const,
      registers,
    }),
    cost: new LabelledCounter({
      name: 'relay_cost_usd_total',
      help: 'What relayed requests cost at the price book, in US dollars, by requested model',
      labelNames: ['model'] as const,
      registers,
    }),
    authRejected: new LabelledCounter({
      name: 'relay_auth_rejected_total',
      help: 'Requests refused with 401 for a missing or invalid key, by error code',
      labelNames: ['reason'] as const,
      registers,
    }),
    streamsOpen: new Gauge({
      name: 'relay_streams_open',
      help: 'Streamed answers under way',
      registers,
      collect() {
        this.set(sources.openStreams());
      },
    }),
    circuitState: new Gauge({
      name: 'relay_channel_circuit_state',
      help: 'Each channel’s circuit breaker: 0 closed, 1 half-open (a trial may pass), 2 open',
      labelNames: ['channel'] as const,
      registers,
      async collect() {
        let circuits: Iterable<readonly [number, CircuitState]>;
        try {
          circuits = await sources.circuits();
        } catch {
          return; // the channel list could not be read (database away): the last values stand
        }
        this.reset();
        for (const [channelId, state] of circuits) this.labels(String(channelId)).set(CIRCUIT_STATE_VALUE[state]);
      },
    }),
  };
}

export type RelayMetricSet = ReturnType<typeof defineMetrics>;
