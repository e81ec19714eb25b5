import type { MatchedRoute } from '../middleware/route-metadata';
import { ChannelHealth, type CircuitState } from '../channels/channel-health';
import type { AttemptOutcome } from '../pipeline/route-with-retries';
import { RelayError } from '@chat-relay/wire';
import { RelayMetrics, UNMATCHED_ROUTE, type UsageObservation } from './relay-metrics';
import type { MetricSources } from './metric-definitions';
import { OTHER_MODEL, UNROUTED_MODEL } from './model-labels';
import { Exposition } from '../../test/metrics/testing/exposition';

const CHAT: MatchedRoute = { path: '/v1/chat/completions', metadata: { auth: 'token', streaming: true } };
const MESSAGES: MatchedRoute = { path: '/v1/messages', metadata: { auth: 'token', streaming: true, dialect: 'anthropic' } };
const TOKEN: MatchedRoute = { path: '/api/tokens/:id', metadata: { auth: 'management' } };

const row = (overrides: Partial<UsageObservation> = {}): UsageObservation => ({
  requestedModel: 'gpt-4o',
  channelId: 3,
  status: 200,
  latencyMs: 1500,
  ttfbMs: 400,
  promptTokens: 100,
  completionTokens: 20,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  cost: 450,
  ...overrides,
});

const idleSources: MetricSources = { openStreams: () => 0, circuits: async () => [] };
const scrape = async (metrics: RelayMetrics) => new Exposition(await metrics.scrape());
const failure = (status: number, extra: Partial<Extract<AttemptOutcome<never>, { ok: false }>> = {}): AttemptOutcome<never> => ({
  ok: false,
  key: 'sk-upstream',
  error: new RelayError({ status, type: 'upstream_error', code: null, message: 'failed' }),
  retryable: true,
  channelFault: status >= 500,
  ...extra,
});

describe('RelayMetrics', () => {
  it('counts a usage row under its route template, dialect, model, channel and status, with its tokens and cost', async () => {
    const metrics = new RelayMetrics(idleSources);
    metrics.observeUsage(row(), CHAT);
    metrics.observeUsage(row({ status: 502, promptTokens: 7, completionTokens: 0, cost: 0, ttfbMs: null }), CHAT);
    metrics.observeUsage(row({ requestedModel: 'claude-x', channelId: 4, cacheReadTokens: 60, cacheWriteTokens: 30, cost: 1_250_000 }), MESSAGES);
    const scraped = await scrape(metrics);

    expect(scraped.table('relay_requests_total')).toEqual([
      { route: '/v1/chat/completions', dialect: 'openai', model: 'gpt-4o', channel: '3', status: '200', value: 1 },
      { route: '/v1/chat/completions', dialect: 'openai', model: 'gpt-4o', channel: '3', status: '502', value: 1 },
      { route: '/v1/messages', dialect: 'anthropic', model: 'claude-x', channel: '4', status: '200', value: 1 },
    ]);
    expect(scraped.table('relay_tokens_total', { model: 'gpt-4o' })).toEqual([
      { model: 'gpt-4o', kind: 'prompt', value: 107 },
      { model: 'gpt-4o', kind: 'completion', value: 20 },
      { model: 'gpt-4o', kind: 'cache_read', value: 0 },
      { model: 'gpt-4o', kind: 'cache_write', value: 0 },
    ]);
    expect(scraped.value('relay_tokens_total', { model: 'claude-x', kind: 'cache_read' })).toBe(60);
    expect(scraped.value('relay_tokens_total', { model: 'claude-x', kind: 'cache_write' })).toBe(30);
    expect(scraped.value('relay_cost_usd_total', { model: 'gpt-4o' })).toBeCloseTo(0.00045, 12);
    expect(scraped.value('relay_cost_usd_total', { model: 'claude-x' })).toBeCloseTo(1.25, 12);
  });

  it('times requests in seconds: latency of every row, time to first byte of those that had one', async () => {
    const metrics = new RelayMetrics(idleSources);
    metrics.observeUsage(row({ latencyMs: 1500, ttfbMs: 400 }), CHAT);
    metrics.observeUsage(row({ latencyMs: 80, ttfbMs: null, status: 502 }), CHAT);
    const scraped = await scrape(metrics);

    const latency = scraped.histogram('relay_request_duration_seconds', { route: '/v1/chat/completions', model: 'gpt-4o', channel: '3' });
    expect(latency).toMatchObject({ count: 2, sum: expect.closeTo(1.58, 9) });
    expect(latency.buckets).toMatchObject({ '0.05': 0, '0.1': 1, '1': 1, '2.5': 2, '+Inf': 2 });
    const ttfb = scraped.histogram('relay_time_to_first_byte_seconds', { route: '/v1/chat/completions' });
    expect(ttfb).toMatchObject({ count: 1, sum: expect.closeTo(0.4, 9) });
    expect(ttfb.buckets).toMatchObject({ '0.25': 0, '0.5': 1 });
    expect(scraped.types.get('relay_request_duration_seconds')).toBe('histogram');
  });

  it('counts other responses with empty model and channel, and unknown paths under one route label', async () => {
    const metrics = new RelayMetrics(idleSources);
    metrics.observeResponse(TOKEN, 200, 0.003);
    metrics.observeResponse(TOKEN, 200, 0.004);
    metrics.observeResponse(undefined, 401, 0.001);
    metrics.observeResponse(undefined, 404, 0.001);
    const scraped = await scrape(metrics);

    expect(scraped.table('relay_requests_total')).toEqual([
      { route: '/api/tokens/:id', dialect: 'openai', model: '', channel: '', status: '200', value: 2 },
      { route: UNMATCHED_ROUTE, dialect: '', model: '', channel: '', status: '401', value: 1 },
      { route: UNMATCHED_ROUTE, dialect: '', model: '', channel: '', status: '404', value: 1 },
    ]);
    expect(scraped.histogram('relay_request_duration_seconds', { route: '/api/tokens/:id' })).toMatchObject({ count: 2, sum: expect.closeTo(0.007, 9) });
  });

  it('bounds model labels: unrouted names share one label, and past the limit every new name shares another', async () => {
    const metrics = new RelayMetrics(idleSources, { maxModels: 2 });
    metrics.observeUsage(row({ requestedModel: 'typo-model', channelId: null }), CHAT);
    metrics.observeUsage(row({ requestedModel: 'gpt-4o' }), CHAT);
    metrics.observeUsage(row({ requestedModel: 'gpt-4o', channelId: null, status: 429 }), CHAT);
    metrics.observeUsage(row({ requestedModel: 'gpt-4o-mini' }), CHAT);
    metrics.observeUsage(row({ requestedModel: 'gpt-5' }), CHAT);
    metrics.observeUsage(row({ requestedModel: 'o3' }), CHAT);
    metrics.observeUsage(row({ requestedModel: null, channelId: null, status: 400 }), CHAT);
    const scraped = await scrape(metrics);

    const byModel = (model: string) => scraped.value('relay_requests_total', { model });
    expect([byModel(UNROUTED_MODEL), byModel('gpt-4o'), byModel('gpt-4o-mini'), byModel(OTHER_MODEL), byModel('')]).toEqual([1, 2, 1, 2, 1]);
    // A model seen routed keeps its label on a request that never reached a channel (here a 429).
    expect(scraped.value('relay_requests_total', { model: 'gpt-4o', channel: '', status: '429' })).toBe(1);
    expect(scraped.samples('relay_requests_total', { model: 'typo-model' })).toEqual([]);
  });

  it('counts upstream attempts by outcome, every outcome of a channel from zero, and retries under the failed attempt', async () => {
    const metrics = new RelayMetrics(idleSources);
    metrics.upstreamAttempt(3, failure(500));
    metrics.upstreamRetry(3, failure(500));
    metrics.upstreamAttempt(4, { ok: true, result: undefined });
    metrics.upstreamAttempt(4, failure(504, { firstByteTimeout: true }));
    metrics.upstreamAttempt(4, failure(401, { keyRejected: true, channelFault: false }));
    metrics.upstreamAttempt(4, failure(400, { retryable: false }));
    metrics.upstreamAttempt(4, failure(499, { channelFault: false }));
    metrics.upstreamAttempt(4, failure(404, { endpointMissing: true }));
    const scraped = await scrape(metrics);

    expect(scraped.table('relay_upstream_attempts_total', { channel: '3' }).filter((sample) => sample['value'] !== 0)).toEqual([
      { channel: '3', outcome: 'upstream_error', value: 1 },
    ]);
    expect(scraped.samples('relay_upstream_attempts_total', { channel: '3' })).toHaveLength(7);
    expect(Object.fromEntries(scraped.table('relay_upstream_attempts_total', { channel: '4' }).map((sample) => [sample['outcome'], sample['value']]))).toEqual({
      success: 1,
      endpoint_missing: 1,
      key_rejected: 1,
      caller_gone: 1,
      timeout: 1,
      upstream_error: 0,
      request_error: 1,
    });
    expect(scraped.value('relay_upstream_retries_total', { channel: '3', outcome: 'upstream_error' })).toBe(1);
    expect(scraped.value('relay_upstream_retries_total')).toBe(1);
  });

  it('counts refused keys by code from zero, and folds codes past the bound into other', async () => {
    const metrics = new RelayMetrics(idleSources);
    expect((await scrape(metrics)).table('relay_auth_rejected_total').map((sample) => sample['value'])).toEqual([0, 0, 0, 0]);
    metrics.authRejected('invalid_api_key');
    metrics.authRejected('invalid_api_key');
    metrics.authRejected('token_expired');
    for (let i = 0; i < 30; i++) metrics.authRejected(`made_up_${i}`);
    const scraped = await scrape(metrics);

    expect(scraped.value('relay_auth_rejected_total', { reason: 'invalid_api_key' })).toBe(2);
    expect(scraped.value('relay_auth_rejected_total', { reason: 'token_expired' })).toBe(1);
    expect(scraped.samples('relay_auth_rejected_total')).toHaveLength(17);
    expect(scraped.value('relay_auth_rejected_total', { reason: 'other' })).toBe(18);
    expect(scraped.value('relay_auth_rejected_total')).toBe(33);
  });

  it('reads open streams and each circuit when scraped: 0 closed, 1 half-open, 2 open', async () => {
    let now = 1_000_000;
    const health = new ChannelHealth({ minFailures: 1, failureRate: 0.5, coolDownMs: 10_000 }, () => now);
    let streams = 3;
    const metrics = new RelayMetrics({
      openStreams: () => streams,
      circuits: async () => [1, 2].map((id) => [id, health.snapshot(id).state] as const),
    });
    health.recordFailure(2, null);
    const open = await scrape(metrics);
    expect(open.value('relay_streams_open')).toBe(3);
    expect(open.table('relay_channel_circuit_state')).toEqual([
      { channel: '1', value: 0 },
      { channel: '2', value: 2 },
    ]);

    now += 10_000;
    streams = 0;
    const halfOpen = await scrape(metrics);
    expect(halfOpen.value('relay_streams_open')).toBe(0);
    expect(halfOpen.value('relay_channel_circuit_state', { channel: '2' })).toBe(1);
  });

  it('keeps the last circuit states when the channel list cannot be read, and drops channels gone since', async () => {
    let circuits: () => Promise<Array<readonly [number, CircuitState]>> = async () => [
      [1, 'open'],
      [2, 'closed'],
    ];
    const metrics = new RelayMetrics({ openStreams: () => 0, circuits: () => circuits() });
    await metrics.scrape();
    circuits = () => Promise.reject(new Error('database away'));
    expect((await scrape(metrics)).table('relay_channel_circuit_state')).toEqual([
      { channel: '1', value: 2 },
      { channel: '2', value: 0 },
    ]);
    circuits = async () => [[2, 'half_open']];
    expect((await scrape(metrics)).table('relay_channel_circuit_state')).toEqual([{ channel: '2', value: 1 }]);
  });

  it('has a registry of its own: two instances in one process share no counter, and neither uses the global registry', async () => {
    const { register } = await import('prom-client');
    const first = new RelayMetrics(idleSources);
    const second = new RelayMetrics(idleSources);
    first.observeUsage(row(), CHAT);
    first.upstreamAttempt(3, failure(500));
    second.observeUsage(row({ status: 502 }), CHAT);

    expect((await scrape(first)).table('relay_requests_total')).toEqual([expect.objectContaining({ status: '200', value: 1 })]);
    expect((await scrape(second)).table('relay_requests_total')).toEqual([expect.objectContaining({ status: '502', value: 1 })]);
    expect((await scrape(second)).samples('relay_upstream_attempts_total')).toEqual([]);
    expect(register.getSingleMetric('relay_requests_total')).toBeUndefined();
  });

  it("appends the process's metrics (heap, event-loop lag, CPU) in the text format 0.0.4", async () => {
    const metrics = new RelayMetrics(idleSources);
    const scraped = await scrape(metrics);
    for (const name of ['nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds', 'process_cpu_seconds_total']) {
      expect(scraped.family(name).metrics.length).toBeGreaterThan(0);
    }
    expect(metrics.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

});
