import type { Account } from '@chat-relay/contract';
import { useState } from 'react';
import { formatBytes, formatCount, formatMicroUsd, formatTime } from '../../api/format';
import { unwrap } from '@chat-relay/client';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorNotice } from '../../components/error-notice';
import { KeyShownOnce } from '../../components/key-shown-once';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { WindowBars } from '../../components/window-bars';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { AccountEditor } from './account-editor';

const PER_PAGE = 20;

/** The admin's accounts: who may sign in, with what role, and how much each may spend. */
export function AccountsPage() {
  const { client, account: me } = useSession();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Account | 'new' | null>(null);
  const [created, setCreated] = useState<{ name: string; accessKey: string } | null>(null);
  const [saved, setSaved] = useState<string>();
  const list = useLoad(
    async (signal) => unwrap(await client.api.accounts.listAccounts({ query: { page, per_page: PER_PAGE }, fetchOptions: { signal } }), 200),
    String(page),
  );

  const remove = async (account: Account) => {
    unwrap(await client.api.accounts.deleteAccount({ params: { id: account.id } }), 204);
    if (page > 1 && list.data?.data.length === 1) setPage(page - 1);
    else list.reload();
  };

  const columns: Column<Account>[] = [
    {
      id: 'name',
      header: 'Account',
      sortValue: (account) => account.name,
      cell: (account) => (
        <div className="stack">
          <strong>
            {account.name}
            {account.id === me.id && <span className="muted"> (you)</span>}
          </strong>
          <small className="muted">
            #{account.id} · key <code>{account.key_hint ?? '—'}</code>
          </small>
        </div>
      ),
    },
    { id: 'role', header: 'Role', sortValue: (account) => account.role, cell: (account) => account.role },
    {
      id: 'status',
      header: 'Status',
      sortValue: (account) => account.status,
      cell: (account) => <span className={`badge ${account.status === 'active' ? 'badge-ok' : 'badge-bad'}`}>{account.status}</span>,
    },
    { id: 'spent', header: 'Spent', numeric: true, sortValue: (account) => account.quota_used, cell: (account) => formatMicroUsd(account.quota_used) },
    {
      id: 'quota',
      header: 'Quota',
      numeric: true,
      sortValue: (account) => account.quota_limit,
      cell: (account) => (account.quota_limit === null ? 'no limit' : formatMicroUsd(account.quota_limit)),
    },
    {
      id: 'windows',
      header: 'Windows',
      cell: (account) => <WindowBars windows={account.windows} compact label={`Limit windows of ${account.name}`} />,
    },
    {
      id: 'stored',
      header: 'Stored responses',
      numeric: true,
      sortValue: (account) => account.stored_responses.bytes,
      cell: ({ stored_responses: stored }) => (
        <span title={`at most ${formatCount(stored.max_count)} responses and ${formatBytes(stored.max_bytes)}; the oldest go first`}>
          {formatCount(stored.count)} · {formatBytes(stored.bytes)} of {formatBytes(stored.max_bytes)}
        </span>
      ),
    },
    { id: 'created', header: 'Created', sortValue: (account) => account.created_at, cell: (account) => formatTime(account.created_at) },
    {
      id: 'actions',
      header: 'Actions',
      cell: (account) => (
        <div className="toolbar">
          <button type="button" onClick={() => setEditing(account)}>
            Edit
          </button>
          <ConfirmAction question={`Delete account “${account.name}” and everything it owns?`} onConfirm={() => remove(account)} />
        </div>
      ),
    },
  ];

  const startNew = () => {
    setSaved(undefined);
    setCreated(null);
    setEditing('new');
  };

  return (
    <Page
      title="Accounts"
      actions={
        <button type="button" className="primary" onClick={startNew}>
          New account
        </button>
      }
    >
      {created && (
        <KeyShownOnce
          title={`Access key for “${created.name}”`}
          explanation="Copy it now: it is shown only this once. The account signs in to this console with it and manages its own tokens."
          secret={created.accessKey}
          testId="new-account-key"
          onDone={() => setCreated(null)}
        />
      )}
      {editing && (
        <AccountEditor
          key={editing === 'new' ? 'new' : editing.id}
          account={editing === 'new' ? undefined : editing}
          onCreated={(account) => {
            setEditing(null);
            setCreated({ name: account.name, accessKey: account.access_key });
            list.reload();
          }}
          onSaved={(account) => {
            setEditing(null);
            setSaved(`Saved account “${account.name}”.`);
            list.reload();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      <p role="status" className="muted">
        {saved}
      </p>
      <ErrorNotice error={list.error} title="Could not list the accounts" />
      {list.loading && !list.data && <p role="status">Loading accounts…</p>}
      {list.data && (
        <>
          <DataTable caption="Accounts" columns={columns} rows={list.data.data} rowKey={(account) => account.id} />
          <Pager page={page} perPage={PER_PAGE} total={list.data.total} onPage={setPage} label="Account pages" />
        </>
      )}
    </Page>
  );
}
