import type { PriceTable } from '@chat-relay/contract';
import { useEffect, useMemo, useState } from 'react';
import { unwrap } from '@chat-relay/client';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { TextField } from '../../components/field';
import { FormErrors } from '../../components/form-errors';
import { Page } from '../../components/page';
import { useBusyAction } from '../../hooks/use-busy-action';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { PriceTableEditor } from './price-table-editor';
import { emptyPriceRow, rowsFromTable, samePrices, toPriceTable, type PriceRow } from './price-rows';

/** The admin's price table, edited in place and saved whole (`PUT /api/prices`). */
export function PricesPage() {
  const { client } = useSession();
  const loaded = useLoad(async (signal) => unwrap(await client.api.accounts.getPrices({ fetchOptions: { signal } }), 200), 'prices');
  const [rows, setRows] = useState<PriceRow[] | null>(null);
  const [savedTable, setSavedTable] = useState<PriceTable | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [filter, setFilter] = useState('');
  const [status, setStatus] = useState('');
  const save = useBusyAction();

  useEffect(() => {
    if (!loaded.data) return;
    setRows(rowsFromTable(loaded.data));
    setSavedTable(loaded.data);
  }, [loaded.data]);

  const edit = (next: PriceRow[]) => {
    setRows(next);
    setStatus('');
  };
  const submit = async () => {
    if (!rows) return;
    const outcome = toPriceTable(rows);
    setErrors(outcome.ok ? [] : outcome.errors);
    if (!outcome.ok) return;
    const table = await save.run(async () => unwrap(await client.api.accounts.putPrices({ body: outcome.table }), 200));
    if (!table) return;
    setRows(rowsFromTable(table));
    setSavedTable(table);
    setStatus(`Saved ${table.data.length} prices.`);
  };

  const outcome = useMemo(() => (rows ? toPriceTable(rows) : null), [rows]);
  const unsaved = outcome !== null && savedTable !== null && (!outcome.ok || !samePrices(outcome.table, savedTable));
  const needle = filter.trim().toLowerCase();

  return (
    <Page
      title="Prices"
      actions={
        <>
          <button type="button" disabled={!rows} onClick={() => rows && edit([...rows, emptyPriceRow()])}>
            Add row
          </button>
          <button type="button" className="primary" disabled={!rows || save.busy} onClick={() => void submit()}>
            Save prices
          </button>
        </>
      }
    >
      <p className="muted">
        Amounts in US dollars; a model without a price costs nothing. Empty cache and unit prices cost what input costs, or nothing for units.
      </p>
      <ErrorNotice error={loaded.error} title="Could not load the prices" />
      {loaded.loading && !rows && <p role="status">Loading prices…</p>}
      <FormErrors errors={errors} title="Nothing was saved: check these rows" />
      <ErrorNotice error={save.error} />
      <p role="status" className={unsaved ? 'outcome-bad' : 'muted'}>
        {unsaved ? 'Unsaved changes' : status}
      </p>
      {rows && rows.length === 0 && (
        <EmptyState title="No prices yet">
          Without a price a model costs nothing and quotas never run out. Press <strong>Add row</strong>, name a model or a glob (gpt-4o*), and save.
        </EmptyState>
      )}
      {rows && rows.length > 0 && (
        <>
          <div className="toolbar">
            <TextField label="Filter models" type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
          </div>
          <PriceTableEditor rows={rows} shown={(row) => needle === '' || row.model.trim() === '' || row.model.toLowerCase().includes(needle)} onChange={edit} />
        </>
      )}
    </Page>
  );
}
