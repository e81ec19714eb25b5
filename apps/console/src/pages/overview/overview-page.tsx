import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatCompact, formatMicroUsd, formatPercent } from '../../api/format';
import { unwrap } from '@chat-relay/client';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { SelectField } from '../../components/field';
import { Page } from '../../components/page';
import { useChannelNames, useTokenNames } from '../../hooks/use-id-names';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { toChartSeries, type Metric } from './chart-series';
import { lineLabel, type GroupBy } from './line-labels';
import { OverviewCards } from './overview-cards';
import { UsageChart } from './usage-chart';
import { rangeById, USAGE_RANGES, windowOf } from './usage-range';

const GROUP_OPTIONS: ReadonlyArray<{ value: GroupBy; label: string }> = [
  { value: 'total', label: 'Total' },
  { value: 'model', label: 'Model' },
  { value: 'channel', label: 'Channel' },
  { value: 'token', label: 'Token' },
];
const isGroupBy = (value: string): value is GroupBy => GROUP_OPTIONS.some((option) => option.value === value);

const CHARTS: ReadonlyArray<{ caption: string; metric: Metric; format: (value: number) => string }> = [
  { caption: 'Requests', metric: 'requests', format: formatCompact },
  { caption: 'Tokens', metric: 'tokens', format: formatCompact },
  { caption: 'Cost', metric: 'cost', format: formatMicroUsd },
  { caption: 'Error rate', metric: 'errorRate', format: formatPercent },
];

/** Requests, tokens, cost and errors over the last day, week or month, in total or per group. */
export function OverviewPage() {
  const { client, isAdmin } = useSession();
  const [rangeId, setRangeId] = useState('24h');
  const [groupBy, setGroupBy] = useState<GroupBy>('total');
  const range = rangeById(rangeId);

  const { data, error, loading } = useLoad(async (signal) => {
    // "Now" is taken per load, so the window and the filled buckets agree.
    const window = windowOf(range, new Date());
    const query = { from: window.from.toISOString(), to: window.to.toISOString(), bucket: window.bucket, group_by: groupBy };
    const series = unwrap(await client.api.accounts.getUsage({ query, fetchOptions: { signal } }), 200);
    return { series, window };
  }, `${range.id}:${groupBy}`);

  const channelNames = useChannelNames(groupBy === 'channel');
  const tokenNames = useTokenNames(groupBy === 'token');
  const chart = useMemo(() => (data ? toChartSeries(data.series, data.window) : null), [data]);
  const shownGroup = data?.series.group_by ?? groupBy;
  const names = shownGroup === 'channel' ? channelNames : tokenNames;
  const labels = Object.fromEntries((chart?.lines ?? []).map((line) => [line.id, lineLabel(line, shownGroup, names)]));

  const controls = (
    <div className="toolbar">
      <SelectField
        label="Range"
        value={range.id}
        onChange={(event) => setRangeId(event.target.value)}
        options={USAGE_RANGES.map((option) => ({ value: option.id, label: option.label }))}
      />
      <SelectField
        label="Group by"
        value={groupBy}
        onChange={(event) => {
          if (isGroupBy(event.target.value)) setGroupBy(event.target.value);
        }}
        options={GROUP_OPTIONS}
      />
    </div>
  );

  return (
    <Page title="Overview" actions={controls}>
      <ErrorNotice error={error} title="Could not load usage" />
      {loading && <p role="status">Loading usage…</p>}
      {data && chart && (
        <>
          <OverviewCards totals={data.series.totals} />
          {data.series.totals.requests === 0 ? (
            <EmptyState title="No requests in this range yet">
              <p>
                {isAdmin ? (
                  <>
                    Create a <Link to="/channels">channel</Link> and a <Link to="/tokens">token</Link>,
                  </>
                ) : (
                  <>
                    Create a <Link to="/tokens">token</Link>,
                  </>
                )}{' '}
                then send a request from the <Link to="/playground">Playground</Link>: it shows up here.
              </p>
            </EmptyState>
          ) : (
            <div className="usage-charts">
              {CHARTS.map((spec) => (
                <UsageChart key={spec.metric} {...spec} chart={chart} labels={labels} bucket={data.window.bucket} />
              ))}
            </div>
          )}
        </>
      )}
    </Page>
  );
}
