import { TokenStatusSchema, type Token, type TokenStatus } from '@chat-relay/contract';
import { useMemo, useState } from 'react';
import { unwrap } from '@chat-relay/client';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { SelectField, TextField } from '../../components/field';
import { KeyShownOnce } from '../../components/key-shown-once';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { useDebounced } from '../../hooks/use-debounced';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { TokenBatchBar } from './token-batch-bar';
import { TokenBatchLimitsForm } from './token-batch-limits-form';
import { tokenColumns } from './token-columns';
import { TokenCreateForm } from './token-create-form';
import { TokenEditForm } from './token-edit-form';
import { TokenUsagePanel } from './token-usage-panel';

const TOKENS_PER_PAGE = 20;
const STATUS_OPTIONS = [{ value: '', label: 'Any status' }, ...TokenStatusSchema.options.map((status) => ({ value: status, label: status }))];
const isTokenStatus = (value: string): value is TokenStatus => TokenStatusSchema.safeParse(value).success;

/** One panel at a time, so a field label never appears twice on the page. */
type Panel = { kind: 'none' } | { kind: 'create' } | { kind: 'edit'; token: Token } | { kind: 'usage'; token: Token } | { kind: 'batch-limits' };

/** API tokens: list, search, batch actions, create (the key shown once), edit policy, usage. */
export function TokensPage() {
  const { client } = useSession();
  const [panel, setPanel] = useState<Panel>({ kind: 'none' });
  // The new key lives only here, until `Done`.
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<TokenStatus | ''>('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string | number>>(new Set());
  const [outcome, setOutcome] = useState('');
  const [actionError, setActionError] = useState<unknown>();
  const query = useDebounced(search.trim(), 300);

  const list = useLoad(async (signal) => {
    const paging = { page, per_page: TOKENS_PER_PAGE };
    const response = query
      ? await client.api.tokens.searchTokens({ query: { ...paging, q: query }, fetchOptions: { signal } })
      : await client.api.tokens.listTokens({ query: { ...paging, ...(status ? { status } : {}) }, fetchOptions: { signal } });
    return unwrap(response, 200);
  }, `${query}|${status}|${page}`);

  const columns = useMemo(
    () => tokenColumns({ onEdit: (token) => setPanel({ kind: 'edit', token }), onUsage: (token) => setPanel({ kind: 'usage', token }) }),
    [],
  );
  /** A new search or filter starts from the first page, with nothing selected. */
  const changeView = (next: () => void) => {
    next();
    setPage(1);
    setSelected(new Set());
  };
  const afterChange = (message: string) => {
    setOutcome(message);
    setActionError(undefined);
    setSelected(new Set());
    list.reload();
  };

  const newTokenButton = (
    <button type="button" className="primary" onClick={() => setPanel({ kind: 'create' })}>
      New token
    </button>
  );
  const filtered = query !== '' || status !== '';

  return (
    <Page title="Tokens" actions={newTokenButton}>
      {created && (
        <KeyShownOnce
          title={`Token ${created.name} created`}
          explanation="Copy the key now: it is shown only this once. The list shows only its last characters."
          secret={created.key}
          testId="new-token-key"
          takeFocus
          onDone={() => setCreated(null)}
        />
      )}
      {panel.kind === 'create' && (
        <TokenCreateForm
          onCancel={() => setPanel({ kind: 'none' })}
          onCreated={(token) => {
            setCreated({ name: token.name, key: token.key });
            setPanel({ kind: 'none' });
            afterChange('');
          }}
        />
      )}
      {panel.kind === 'edit' && (
        <TokenEditForm
          key={panel.token.id}
          token={panel.token}
          onCancel={() => setPanel({ kind: 'none' })}
          onSaved={(token) => {
            setPanel({ kind: 'none' });
            afterChange(`Saved token ${token.name}.`);
          }}
        />
      )}
      {panel.kind === 'batch-limits' && (
        <TokenBatchLimitsForm
          selectedIds={[...selected].map(Number)}
          onCancel={() => setPanel({ kind: 'none' })}
          onDone={(message) => {
            setPanel({ kind: 'none' });
            afterChange(message);
          }}
        />
      )}
      {panel.kind === 'usage' && <TokenUsagePanel key={panel.token.id} token={panel.token} onClose={() => setPanel({ kind: 'none' })} />}

      <div className="toolbar">
        <TextField
          label="Search tokens"
          type="search"
          value={search}
          placeholder="Name or key hint"
          onChange={(event) => changeView(() => setSearch(event.target.value))}
        />
        <SelectField
          label="Filter by status"
          value={status}
          disabled={search.trim() !== ''}
          onChange={(event) => changeView(() => setStatus(isTokenStatus(event.target.value) ? event.target.value : ''))}
          options={STATUS_OPTIONS}
        />
      </div>
      <TokenBatchBar selectedIds={[...selected].map(Number)} onDone={afterChange} onError={setActionError} onSetLimits={() => setPanel({ kind: 'batch-limits' })} />
      <p role="status" className="muted">
        {outcome}
      </p>
      <ErrorNotice error={actionError} />
      <ErrorNotice error={list.error} title="Could not load the tokens" />
      {list.loading && <p role="status">Loading tokens…</p>}
      {list.data && list.data.total === 0 && (
        <EmptyState title={filtered ? 'No tokens match' : 'No tokens yet'}>
          {!filtered && <p>Create one with New token: its key is shown once, then only its last characters.</p>}
        </EmptyState>
      )}
      {list.data && list.data.data.length > 0 && (
        <DataTable caption="API tokens" columns={columns} rows={list.data.data} rowKey={(token) => token.id} selection={{ selected, onChange: setSelected }} />
      )}
      {list.data && list.data.total > 0 && (
        <Pager page={list.data.page} perPage={TOKENS_PER_PAGE} total={list.data.total} onPage={(next) => {
            setPage(next);
            setSelected(new Set());
          }} label="Token pages" />
      )}
    </Page>
  );
}
