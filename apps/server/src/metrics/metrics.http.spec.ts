import { Writable } from 'node:stream';
import { ErrorResponseSchema, type Channel } from '@chat-relay/contract';
import { startE2eRelay, type E2eRelay } from '../../test/e2e/e2e-relay';
import { createLogger } from '../logger';
import type { StoredUsageLogEntry } from '../storage/types';
import { closedPort } from '../../test/testing/closed-port';
import { Exposition } from '../../test/metrics/testing/exposition';

const METRICS_TOKEN = 'scraper-secret-0123456789abcdef';
const CHAT_ROUTE = '/v1/chat/completions';
/** gpt-4o's list price, micro-USD per million tokens. */
const PRICE = { model: 'gpt-4o', input: 2_500_000, output: 10_000_000 };
const chat = (text: string, extra: Record<string, unknown> = {}) => ({ model: 'gpt-4o', messages: [{ role: 'user', content: text }], ...extra });
const sum = (rows: readonly StoredUsageLogEntry[], pick: (row: StoredUsageLogEntry) => number) => rows.reduce((total, row) => total + pick(row), 0);

async function scrape(e2e: E2eRelay, key: string): Promise<{ response: Response; metrics: Exposition }> {
  const response = await fetch(`${e2e.url}/metrics`, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}: ${text}`);
  return { response, metrics: new Exposition(text) };
}

describe('GET /metrics after real requests through simulators', () => {
  let e2e: E2eRelay;
  let primary: Channel;
  let backup: Channel;
  let rows: StoredUsageLogEntry[];
  const statuses: number[] = [];
  const logLines: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    e2e = await startE2eRelay({ env: { RELAY_METRICS_TOKEN: METRICS_TOKEN }, logger: createLogger('trace', sink) });
    primary = await e2e.addChannel((await e2e.startSim()).baseUrl, { name: 'primary', priority: 10 });
    backup = await e2e.addChannel((await e2e.startSim()).baseUrl, { name: 'backup', priority: 0 });
    const priced = await fetch(`${e2e.url}/api/prices`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: [PRICE] }),
    });
    expect(priced.status).toBe(200);

    for (const body of [chat('Hello there'), chat('Tell me a story', { stream: true, stream_options: { include_usage: true } }), chat('[sim:fault=status:500] hi')]) {
      const answer = await e2e.postChat(body);
      await answer.text();
      statuses.push(answer.status);
    }
    const keyless = await fetch(`${e2e.url}${CHAT_ROUTE}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(chat('hi')) });
    expect(ErrorResponseSchema.parse(await keyless.json()).error.code).toBe('invalid_api_key');
    statuses.push(keyless.status);
    rows = await e2e.usageRows(3);
  }, 30_000);
  afterAll(() => e2e.close());

  it('the requests went as planned: two answers from the primary, one failure after a retry on the backup, one keyless 401', () => {
    expect(statuses).toEqual([200, 200, 502, 401]);
    expect(rows.map((row) => ({ status: row.status, channelId: row.channelId, attempts: row.attempts, stream: row.stream }))).toEqual([
      { status: 200, channelId: primary.id, attempts: 1, stream: false },
      { status: 200, channelId: primary.id, attempts: 1, stream: true },
      { status: 502, channelId: backup.id, attempts: 2, stream: false },
    ]);
  });

  it('counts each request once, by route template, dialect, model, channel and status', async () => {
    const { response, metrics } = await scrape(e2e, e2e.relay.adminKey);
    // Express orders the parameters (charset first); Prometheus reads them in any order.
    const [mediaType, ...parameters] = (response.headers.get('content-type') ?? '').split(/;\s*/);
    expect({ mediaType, parameters: parameters.sort() }).toEqual({ mediaType: 'text/plain', parameters: ['charset=utf-8', 'version=0.0.4'] });
    const chatSeries = metrics.table('relay_requests_total', { route: CHAT_ROUTE });
    expect(chatSeries).toHaveLength(3);
    expect(chatSeries).toEqual(
      expect.arrayContaining([
        { route: CHAT_ROUTE, dialect: 'openai', model: 'gpt-4o', channel: String(primary.id), status: '200', value: 2 },
        { route: CHAT_ROUTE, dialect: 'openai', model: 'gpt-4o', channel: String(backup.id), status: '502', value: 1 },
        { route: CHAT_ROUTE, dialect: 'openai', model: '', channel: '', status: '401', value: 1 },
      ]),
    );
    // The management calls of the set-up, under their templates, never their paths.
    expect(metrics.value('relay_requests_total', { route: '/api/channels', status: '201' })).toBe(2);
    expect(metrics.value('relay_requests_total', { route: '/api/tokens', status: '201' })).toBe(1);
    expect(metrics.value('relay_requests_total', { route: '/api/prices', status: '200' })).toBe(1);
  });

  it('adds up tokens and cost exactly as the usage rows do', async () => {
    const { metrics } = await scrape(e2e, e2e.relay.adminKey);
    const promptTokens = sum(rows, (row) => row.promptTokens);
    const completionTokens = sum(rows, (row) => row.completionTokens);
    expect(promptTokens).toBeGreaterThan(0);
    expect(completionTokens).toBeGreaterThan(0);
    expect(metrics.value('relay_tokens_total', { model: 'gpt-4o', kind: 'prompt' })).toBe(promptTokens);
    expect(metrics.value('relay_tokens_total', { model: 'gpt-4o', kind: 'completion' })).toBe(completionTokens);
    expect(metrics.value('relay_tokens_total', { model: 'gpt-4o', kind: 'cache_read' })).toBe(0);
    const cost = sum(rows, (row) => row.cost);
    expect(cost).toBeGreaterThan(0);
    expect(metrics.value('relay_cost_usd_total', { model: 'gpt-4o' })).toBeCloseTo(cost / 1_000_000, 12);
  });

  it('times each relayed request once, and the first byte of those that answered', async () => {
    const { metrics } = await scrape(e2e, e2e.relay.adminKey);
    const latency = metrics.histogram('relay_request_duration_seconds', { route: CHAT_ROUTE, model: 'gpt-4o' });
    expect(latency.count).toBe(3);
    // The stored rows keep whole milliseconds: each may differ from the observed time by half of one.
    expect(Math.abs(latency.sum - sum(rows, (row) => row.latencyMs) / 1000)).toBeLessThanOrEqual(rows.length * 0.0005 + 1e-9);
    expect(latency.buckets['+Inf']).toBe(3);
    const answered = rows.filter((row) => row.ttfbMs !== null);
    expect(answered.length).toBeGreaterThanOrEqual(2);
    const ttfb = metrics.histogram('relay_time_to_first_byte_seconds', { route: CHAT_ROUTE });
    expect(ttfb.count).toBe(answered.length);
    expect(Math.abs(ttfb.sum - sum(answered, (row) => row.ttfbMs ?? 0) / 1000)).toBeLessThanOrEqual(answered.length * 0.0005 + 1e-9);
  });

  it('counts upstream attempts per channel and outcome, and the retry under the attempt that failed', async () => {
    const { metrics } = await scrape(e2e, e2e.relay.adminKey);
    const nonZero = metrics.table('relay_upstream_attempts_total').filter((sample) => sample['value'] !== 0);
    expect(nonZero).toEqual(
      expect.arrayContaining([
        { channel: String(primary.id), outcome: 'success', value: 2 },
        { channel: String(primary.id), outcome: 'upstream_error', value: 1 },
        { channel: String(backup.id), outcome: 'upstream_error', value: 1 },
      ]),
    );
    expect(nonZero).toHaveLength(3);
    expect(metrics.value('relay_upstream_attempts_total')).toBe(sum(rows, (row) => row.attempts));
    expect(metrics.table('relay_upstream_retries_total').filter((sample) => sample['value'] !== 0)).toEqual([
      { channel: String(primary.id), outcome: 'upstream_error', value: 1 },
    ]);
  });

  it('reads streams open and circuit states, and carries the process metrics', async () => {
    const { metrics } = await scrape(e2e, e2e.relay.adminKey);
    expect(metrics.value('relay_streams_open')).toBe(0);
    expect(metrics.table('relay_channel_circuit_state')).toEqual(
      expect.arrayContaining([
        { channel: String(primary.id), value: 0 },
        { channel: String(backup.id), value: 0 },
      ]),
    );
    expect(metrics.value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(metrics.family('nodejs_eventloop_lag_seconds').metrics).toHaveLength(1);
  });

  it('takes RELAY_METRICS_TOKEN as well as the admin key; refuses no key or a wrong one with 401, an API token with 403', async () => {
    const before = (await scrape(e2e, METRICS_TOKEN)).metrics;
    expect(before.value('relay_requests_total', { route: CHAT_ROUTE })).toBe(4);

    const keyless = await fetch(`${e2e.url}/metrics`);
    expect(keyless.status).toBe(401);
    expect(ErrorResponseSchema.parse(await keyless.json()).error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
    const wrong = await fetch(`${e2e.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(ErrorResponseSchema.parse(await wrong.json()).error.code).toBe('invalid_api_key');
    const apiToken = await fetch(`${e2e.url}/metrics`, { headers: { authorization: `Bearer ${e2e.token}` } });
    expect(apiToken.status).toBe(403);
    await apiToken.text();

    const after = (await scrape(e2e, METRICS_TOKEN)).metrics;
    expect(after.value('relay_auth_rejected_total', { reason: 'invalid_api_key' })).toBe(before.value('relay_auth_rejected_total', { reason: 'invalid_api_key' }) + 2);
    expect(after.value('relay_requests_total', { route: '/metrics', status: '401' })).toBe(2);
    expect(after.value('relay_requests_total', { route: '/metrics', status: '403' })).toBe(1);
    expect(after.value('relay_requests_total', { route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(5);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.includes(METRICS_TOKEN))).toEqual([]);
  });
});

describe('GET /metrics: an open circuit', () => {
  let e2e: E2eRelay;
  beforeAll(async () => {
    e2e = await startE2eRelay({ circuit: { coolDownMs: 60_000 } });
  });
  afterAll(() => e2e.close());

  it('shows 2 for a channel whose upstream refuses connections until its circuit opened, 0 for a healthy one', async () => {
    const refusing = await e2e.addChannel(`http://127.0.0.1:${await closedPort()}/v1`, { name: 'refusing' });
    const healthy = await e2e.addChannel((await e2e.startSim()).baseUrl, { name: 'healthy', models: ['gpt-4o-mini'] });
    // Refused connections are evidence from no caller in particular: they count in full.
    for (let i = 0; i < 4; i++) await (await e2e.postChat(chat('hi'))).text();
    const { metrics } = await scrape(e2e, e2e.relay.adminKey);

    expect(metrics.table('relay_channel_circuit_state')).toEqual(
      expect.arrayContaining([
        { channel: String(refusing.id), value: 2 },
        { channel: String(healthy.id), value: 0 },
      ]),
    );
    expect(metrics.value('relay_upstream_attempts_total', { channel: String(refusing.id), outcome: 'upstream_error' })).toBe(4);
  });
});
