import type { Token } from '@chat-relay/contract';
import { formatMicroUsd, formatTime } from '../../api/format';
import type { Column } from '../../components/data-table';
import { WindowBars } from '../../components/window-bars';

const rateLimitText = (token: Token): string => {
  const limit = token.rate_limit;
  const parts = [limit?.rpm && `${limit.rpm} rpm`, limit?.tpm && `${limit.tpm} tpm`, limit?.concurrency && `${limit.concurrency} at once`].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'None';
};

const quotaText = (token: Token): string =>
  `${formatMicroUsd(token.quota_used)} of ${token.quota_limit === null ? 'unlimited' : formatMicroUsd(token.quota_limit)}`;

/** The token list's columns; `Edit` and `Usage` per row, described by the token's name. */
export function tokenColumns(actions: { onEdit: (token: Token) => void; onUsage: (token: Token) => void }): Column<Token>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      cell: (token) => <span id={`token-name-${token.id}`}>{token.name}</span>,
      sortValue: (token) => token.name,
    },
    {
      id: 'status',
      header: 'Status',
      cell: (token) => <span className={`badge ${token.status === 'active' ? 'badge-ok' : 'badge-bad'}`}>{token.status}</span>,
      sortValue: (token) => token.status,
    },
    { id: 'key', header: 'Key', cell: (token) => <code>{token.key_hint}</code> },
    { id: 'quota', header: 'Quota used', cell: quotaText, sortValue: (token) => token.quota_used, numeric: true },
    {
      id: 'windows',
      header: 'Windows',
      cell: (token) => <WindowBars windows={token.windows} compact label={`Limit windows of ${token.name}`} />,
      sortValue: (token) => Math.max(0, ...token.windows.map((window) => (window.limit > 0 ? window.used / window.limit : 0))),
    },
    { id: 'expires', header: 'Expires', cell: (token) => (token.expires_at ? formatTime(token.expires_at) : 'Never'), sortValue: (token) => token.expires_at },
    { id: 'models', header: 'Models', cell: (token) => (token.models ? token.models.join(', ') : 'All') },
    { id: 'limits', header: 'Rate limits', cell: rateLimitText },
    { id: 'used', header: 'Last used', cell: (token) => formatTime(token.last_used_at), sortValue: (token) => token.last_used_at },
    {
      id: 'actions',
      header: 'Actions',
      cell: (token) => (
        <div className="row-actions">
          {/* The visible word stays the button's name; the token's name describes which one. */}
          <button type="button" aria-describedby={`token-name-${token.id}`} onClick={() => actions.onEdit(token)}>
            Edit
          </button>
          <button type="button" aria-describedby={`token-name-${token.id}`} onClick={() => actions.onUsage(token)}>
            Usage
          </button>
        </div>
      ),
    },
  ];
}
