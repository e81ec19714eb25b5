import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RelayError } from '@chat-relay/wire';
import { RelayMetrics } from './relay-metrics';
import { Exposition } from '../../test/metrics/testing/exposition';

const DASHBOARD = path.join(__dirname, '../../../../docs/grafana/chat-relay-dashboard.json');
const DOCS = path.join(__dirname, '../../../../docs/METRICS.md');

const DatasourceRefSchema = z.object({ type: z.literal('prometheus'), uid: z.literal('${datasource}') });
const DashboardSchema = z.object({
  title: z.string(),
  templating: z.object({
    list: z.array(z.object({ name: z.string(), type: z.string(), query: z.union([z.string(), z.object({ query: z.string() })]).optional() })),
  }),
  panels: z
    .array(
      z.object({
        title: z.string(),
        datasource: DatasourceRefSchema,
        targets: z.array(z.object({ expr: z.string().min(1), refId: z.string(), datasource: DatasourceRefSchema })).min(1),
      }),
    )
    .min(1),
});

const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset']);

/** The metric names a PromQL expression selects: identifiers left once strings, label matchers, ranges, groupings and function calls are taken out. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  // An identifier followed by `(` is a function or an aggregation; numbers do not match.
  const identifiers = [...bare.matchAll(/(?<![\w.$])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)];
  return identifiers.filter((match) => match[2] === undefined && !PROMQL_WORDS.has(match[1] ?? '')).map((match) => match[1] ?? '');
}

/** A scrape in which every relay series has at least one sample. */
async function scrapeWithEverySeries(): Promise<Exposition> {
  const metrics = new RelayMetrics({ openStreams: () => 1, circuits: async () => [[1, 'open']] });
  const route = { path: '/v1/chat/completions', metadata: { auth: 'token', streaming: true } };
  metrics.observeUsage(
    { requestedModel: 'gpt-4o', channelId: 1, status: 200, latencyMs: 900, ttfbMs: 300, promptTokens: 10, completionTokens: 5, cacheReadTokens: 2, cacheWriteTokens: 1, cost: 75 },
    route,
  );
  metrics.upstreamAttempt(1, { ok: false, key: 'k', error: new RelayError({ status: 500, type: 'upstream_error', code: null, message: 'x' }), retryable: true, channelFault: true });
  metrics.upstreamRetry(1, { ok: false, key: 'k', error: new RelayError({ status: 500, type: 'upstream_error', code: null, message: 'x' }), retryable: true, channelFault: true });
  metrics.authRejected('invalid_api_key');
  metrics.modelFallback('claude-sonnet-4-5', 'gpt-4.1', 'rate_limited');
  return new Exposition(await metrics.scrape());
}

describe('the Grafana dashboard (docs/grafana/chat-relay-dashboard.json)', () => {
  const dashboard = DashboardSchema.parse(JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')));
  const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
  const variableQueries = dashboard.templating.list.flatMap((variable) => (typeof variable.query === 'object' ? [variable.query.query] : []));

  it('reads its Prometheus data source from a variable, in every panel and query', () => {
    expect(dashboard.templating.list).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'datasource', type: 'datasource', query: 'prometheus' })]));
  });

  it('queries only metrics the relay exposes', async () => {
    const exposed = (await scrapeWithEverySeries()).sampleNames();
    const used = new Set([...exprs, ...variableQueries.map((query) => query.replace(/^label_values\(([^,]+),.*$/, '$1'))].flatMap(metricNamesIn));
    expect([...used].filter((name) => !exposed.has(name))).toEqual([]);
    // Every relay metric has a panel, and so do event-loop lag and the heap.
    expect([...used].sort()).toEqual(
      expect.arrayContaining([
        'relay_requests_total',
        'relay_request_duration_seconds_bucket',
        'relay_time_to_first_byte_seconds_bucket',
        'relay_upstream_attempts_total',
        'relay_upstream_retries_total',
        'relay_tokens_total',
        'relay_cost_usd_total',
        'relay_auth_rejected_total',
        'relay_streams_open',
        'relay_channel_circuit_state',
        'nodejs_eventloop_lag_p99_seconds',
        'nodejs_heap_size_used_bytes',
      ]),
    );
  });

  it('docs/METRICS.md describes every relay metric the registry has', async () => {
    const docs = fs.readFileSync(DOCS, 'utf8');
    const relayFamilies = [...(await scrapeWithEverySeries()).types.keys()].filter((name) => name.startsWith('relay_'));
    expect(relayFamilies).toHaveLength(14);
    expect(relayFamilies.filter((name) => !docs.includes(`| \`${name}\` |`))).toEqual([]);
  });

  it('finds metric names in PromQL, leaving out functions, labels, ranges and groupings', () => {
    expect(metricNamesIn('histogram_quantile(0.95, sum by (le, route) (rate(relay_request_duration_seconds_bucket{route=~"/v1.*"}[$__rate_interval])))')).toEqual([
      'relay_request_duration_seconds_bucket',
    ]);
    expect(metricNamesIn('sum(rate(a_total{x="b"}[5m])) / sum without (y) (rate(c_total[1h])) > bool 0')).toEqual(['a_total', 'c_total']);
  });
});
