import type { Token, UsageBucket } from '@chat-relay/contract';
import { Bar, BarChart, Tooltip, XAxis } from 'recharts';
import { formatCount, formatMicroUsd } from '../../api/format';
import { unwrap } from '@chat-relay/client';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { WindowBars } from '../../components/window-bars';

const USAGE_DAYS = 30;

function UsageTable(props: { caption: string; keyHeader: string; rows: readonly UsageBucket[] }) {
  return (
    <div className="table-wrap">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">{props.keyHeader}</th>
            <th scope="col" className="numeric">
              Requests
            </th>
            <th scope="col" className="numeric">
              Tokens in/out
            </th>
            <th scope="col" className="numeric">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.key}</th>
              <td className="numeric">{formatCount(row.requests)}</td>
              <td className="numeric">
                {formatCount(row.prompt_tokens)} / {formatCount(row.completion_tokens)}
              </td>
              <td className="numeric">{formatMicroUsd(row.cost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `Usage`: the token's last 30 days by day (with a small chart) and by model. */
export function TokenUsagePanel(props: { token: Token; onClose: () => void }) {
  const { client } = useSession();
  const { token } = props;
  const { data, error, loading } = useLoad(async (signal) => {
    const from = new Date(Date.now() - USAGE_DAYS * 86_400_000).toISOString();
    const usage = (group_by: 'day' | 'model') =>
      client.api.tokens.getTokenUsage({ params: { id: token.id }, query: { from, group_by }, fetchOptions: { signal } });
    const [byDay, byModel] = await Promise.all([usage('day'), usage('model')]);
    return { byDay: unwrap(byDay, 200), byModel: unwrap(byModel, 200) };
  }, String(token.id));

  return (
    <section className="panel" aria-labelledby="token-usage-title">
      <div className="page-header">
        <h2 id="token-usage-title">Usage of {token.name}, last {USAGE_DAYS} days</h2>
        <button type="button" onClick={props.onClose}>
          Close usage
        </button>
      </div>
      {token.windows.length > 0 && (
        <section aria-labelledby="token-windows-title">
          <h3 id="token-windows-title">Current windows</h3>
          <WindowBars windows={token.windows} label={`Limit windows of ${token.name}`} />
        </section>
      )}
      <ErrorNotice error={error} title="Could not load the usage" />
      {loading && <p role="status">Loading usage…</p>}
      {data && data.byDay.total.requests === 0 && <EmptyState title="No requests with this token in the last 30 days" />}
      {data && data.byDay.total.requests > 0 && (
        <>
          <p>
            {formatCount(data.byDay.total.requests)} requests · {formatCount(data.byDay.total.prompt_tokens + data.byDay.total.completion_tokens)} tokens ·{' '}
            {formatMicroUsd(data.byDay.total.cost)}
          </p>
          <div className="token-usage-chart" aria-hidden="true">
            <BarChart responsive style={{ width: '100%', height: '100%' }} data={data.byDay.data}>
              <XAxis dataKey="key" stroke="var(--muted)" minTickGap={16} />
              <Tooltip contentStyle={{ background: 'var(--surface)', borderColor: 'var(--border)', color: 'var(--text)' }} />
              <Bar dataKey="requests" name="Requests" fill="var(--chart-1)" isAnimationActive={false} />
            </BarChart>
          </div>
          <div className="token-usage-tables">
            <UsageTable caption="By day (UTC)" keyHeader="Day" rows={data.byDay.data} />
            <UsageTable caption="By model" keyHeader="Model" rows={data.byModel.data} />
          </div>
        </>
      )}
    </section>
  );
}
