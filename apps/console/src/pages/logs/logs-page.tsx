import type { LogEntry } from '@chat-relay/contract';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { unwrap } from '@chat-relay/client';
import { DataTable } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { useChannelNames, useTokenNames } from '../../hooks/use-id-names';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { CsvExportControl } from './csv-export-control';
import { logColumns } from './log-columns';
import { exportQueryOf, formFromSearch, logQueryFromSearch, LOGS_PER_PAGE, searchFromForm } from './log-filters';
import { LogFiltersForm } from './log-filters-form';

/** The usage log: every filter of the API, kept in the URL; server pages of 50; CSV of the whole match. */
export function LogsPage() {
  const { client, isAdmin } = useSession();
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.toString();
  const [form, setForm] = useState(() => formFromSearch(searchParams));
  const [formError, setFormError] = useState<unknown>();
  // Back/forward or a pasted link changes the URL: the form follows it.
  useEffect(() => setForm(formFromSearch(new URLSearchParams(search))), [search]);

  const parsed = useMemo(() => logQueryFromSearch(new URLSearchParams(search), isAdmin), [search, isAdmin]);
  const { data, error, loading } = useLoad(async (signal) => {
    if (!parsed.ok) return undefined;
    return unwrap(await client.api.accounts.listLogs({ query: parsed.query, fetchOptions: { signal } }), 200);
  }, search);

  const channels = useChannelNames(true);
  const tokens = useTokenNames(true);
  const columns = useMemo(() => logColumns({ channels, tokens }), [channels, tokens]);

  const apply = () => {
    try {
      setSearchParams(searchFromForm(form));
      setFormError(undefined);
    } catch (failure) {
      setFormError(failure);
    }
  };
  const goToPage = (page: number) => {
    const next = new URLSearchParams(search);
    next.set('page', String(page));
    setSearchParams(next);
  };

  return (
    <Page title="Logs" actions={<CsvExportControl client={client} query={parsed.ok ? exportQueryOf(parsed.query) : null} />}>
      <LogFiltersForm form={form} onChange={setForm} onApply={apply} showAccount={isAdmin} />
      <ErrorNotice error={formError} title="Check the filters" />
      {!parsed.ok && <ErrorNotice error={new Error(parsed.problems.join('; '))} title="This link’s filters are not valid" />}
      <ErrorNotice error={error} title="Could not load the logs" />
      {loading && <p role="status">Loading logs…</p>}
      {data && data.data.length === 0 && (
        <EmptyState title={data.total === 0 ? 'No requests match' : 'No rows on this page'}>
          <p>Requests relayed through a token appear here. Loosen the filters, or send one from the Playground.</p>
        </EmptyState>
      )}
      {data && data.data.length > 0 && (
        <div className="log-table">
          <DataTable<LogEntry> caption="Requests" columns={columns} rows={data.data} rowKey={(entry) => entry.id} />
        </div>
      )}
      {data && data.total > 0 && (
        <Pager page={data.page} perPage={data.per_page || LOGS_PER_PAGE} total={data.total} onPage={goToPage} label="Log pages" />
      )}
    </Page>
  );
}
