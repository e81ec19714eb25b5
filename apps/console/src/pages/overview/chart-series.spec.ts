import type { UsagePoint, UsageSeries } from '@chat-relay/contract';
import { toChartSeries, TOP_GROUPS } from './chart-series';
import type { ChartWindow } from './usage-range';

const point = (time: string, key: string | null, requests: number, extra: Partial<UsagePoint> = {}): UsagePoint => ({
  time,
  key,
  requests,
  errors: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  cost: 0,
  cost_usd: '0.000000',
  ...extra,
});
const seriesOf = (data: UsagePoint[], group_by: UsageSeries['group_by'] = 'model'): UsageSeries => ({
  from: '2026-11-01T00:00:00.000Z',
  to: '2026-11-01T03:59:59.000Z',
  bucket: 'hour',
  group_by,
  data,
  totals: { requests: 0, errors: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0, cost_usd: '0.000000' },
});
const fourHours: ChartWindow = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-01T03:20:00Z'), bucket: 'hour' };

describe('toChartSeries', () => {
  it('has a row for every bucket of the window, zeros where the API left a bucket out', () => {
    const chart = toChartSeries(
      seriesOf([point('2026-11-01T01:00:00.000Z', null, 3, { prompt_tokens: 10, completion_tokens: 5, cost: 700 })], 'total'),
      fourHours,
    );

    expect(chart.rows.map((row) => row.time)).toEqual([
      '2026-11-01T00:00:00.000Z',
      '2026-11-01T01:00:00.000Z',
      '2026-11-01T02:00:00.000Z',
      '2026-11-01T03:00:00.000Z',
    ]);
    expect(chart.lines).toEqual([{ id: 'g0', key: null, other: false, color: 'var(--chart-1)' }]);
    expect(chart.rows.map((row) => row.byLine['g0']!.requests)).toEqual([0, 3, 0, 0]);
    expect(chart.rows[1]!.byLine['g0']).toMatchObject({ tokens: 15, cost: 700 });
  });

  it('fills days too, and drops a stray point outside the window', () => {
    const days: ChartWindow = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-03T12:00:00Z'), bucket: 'day' };
    const chart = toChartSeries(
      seriesOf([point('2026-11-02T00:00:00.000Z', 'gpt-4o', 2), point('2026-10-20T00:00:00.000Z', 'gpt-4o', 99)]),
      days,
    );

    expect(chart.rows.map((row) => row.byLine['g0']!.requests)).toEqual([0, 2, 0]);
  });

  it(`draws the top ${TOP_GROUPS} groups by requests and sums the rest into "other"`, () => {
    const models = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    // h has the most requests, a the fewest: a and b end up in "other".
    const data = models.map((model, index) => point('2026-11-01T02:00:00.000Z', model, index + 1, { errors: 1 }));
    const chart = toChartSeries(seriesOf(data), fourHours);

    expect(chart.lines.map((line) => line.key)).toEqual(['h', 'g', 'f', 'e', 'd', 'c', null]);
    expect(chart.lines.at(-1)).toMatchObject({ id: 'other', other: true });
    expect(chart.rows[2]!.byLine['other']).toMatchObject({ requests: 1 + 2, errors: 2 });
    expect(chart.rows[2]!.byLine['g0']).toMatchObject({ requests: 8 });
  });

  it('has no "other" line when every group fits', () => {
    const chart = toChartSeries(seriesOf([point('2026-11-01T00:00:00.000Z', '3', 1), point('2026-11-01T00:00:00.000Z', null, 1)], 'channel'), fourHours);

    expect(chart.lines.map((line) => line.id)).toEqual(['g0', 'g1']);
    expect(chart.lines.map((line) => line.key)).toEqual([null, '3']);
  });

  it('gives the error rate per bucket and group, and none for a bucket without requests', () => {
    const chart = toChartSeries(
      seriesOf([point('2026-11-01T00:00:00.000Z', 'gpt-4o', 4, { errors: 1 }), point('2026-11-01T01:00:00.000Z', 'gpt-4o', 5, { errors: 5 })]),
      fourHours,
    );

    expect(chart.rows.map((row) => row.byLine['g0']!.errorRate)).toEqual([0.25, 1, null, null]);
  });
});
