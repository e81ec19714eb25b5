import type { LogEntry } from '@chat-relay/contract';
import { formatCount, formatTime } from '../../api/format';
import type { Column } from '../../components/data-table';
import { nameOrId } from '../../hooks/use-id-names';

const ms = (value: number | null): string => (value === null ? '—' : `${formatCount(value)} ms`);

function StatusBadge(props: { entry: LogEntry }) {
  const { status, error_code: code } = props.entry;
  return (
    <>
      <span className={`badge ${status < 400 ? 'badge-ok' : 'badge-bad'}`}>{status}</span>
      {code && <small className="muted log-error-code"> {code}</small>}
    </>
  );
}

function ModelCell(props: { entry: LogEntry }) {
  const { requested_model: requested, upstream_model: upstream } = props.entry;
  if (!upstream || upstream === requested) return <>{requested ?? '—'}</>;
  return (
    <>
      {requested ?? '—'} <span aria-label="sent upstream as">→</span> {upstream}
    </>
  );
}

/** The log's columns; channel and token by name where the console knows it. */
export function logColumns(names: { channels: ReadonlyMap<string, string>; tokens: ReadonlyMap<string, string> }): Column<LogEntry>[] {
  return [
    { id: 'time', header: 'Time', cell: (entry) => formatTime(entry.created_at), sortValue: (entry) => entry.created_at },
    { id: 'status', header: 'Status', cell: (entry) => <StatusBadge entry={entry} />, sortValue: (entry) => entry.status },
    { id: 'model', header: 'Model', cell: (entry) => <ModelCell entry={entry} />, sortValue: (entry) => entry.requested_model },
    { id: 'endpoint', header: 'Endpoint', cell: (entry) => entry.endpoint, sortValue: (entry) => entry.endpoint },
    {
      id: 'channel',
      header: 'Channel',
      cell: (entry) => nameOrId(names.channels, entry.channel_id),
      sortValue: (entry) => (entry.channel_id === null ? null : nameOrId(names.channels, entry.channel_id)),
    },
    {
      id: 'token',
      header: 'Token',
      cell: (entry) => nameOrId(names.tokens, entry.token_id),
      sortValue: (entry) => (entry.token_id === null ? null : nameOrId(names.tokens, entry.token_id)),
    },
    {
      id: 'tokens',
      header: 'Tokens in/out',
      cell: (entry) => `${formatCount(entry.prompt_tokens)} / ${formatCount(entry.completion_tokens)}${entry.usage_estimated ? ' (est.)' : ''}`,
      sortValue: (entry) => entry.prompt_tokens + entry.completion_tokens,
      numeric: true,
    },
    { id: 'cost', header: 'Cost', cell: (entry) => `$${entry.cost_usd}`, sortValue: (entry) => entry.cost, numeric: true },
    { id: 'latency', header: 'Latency', cell: (entry) => ms(entry.latency_ms), sortValue: (entry) => entry.latency_ms, numeric: true },
    { id: 'ttfb', header: 'TTFB', cell: (entry) => ms(entry.ttfb_ms), sortValue: (entry) => entry.ttfb_ms, numeric: true },
    { id: 'attempts', header: 'Attempts', cell: (entry) => entry.attempts, sortValue: (entry) => entry.attempts, numeric: true },
    { id: 'request', header: 'Request id', cell: (entry) => <code>{entry.request_id}</code>, sortValue: (entry) => entry.request_id },
  ];
}
