import { CatalogueModelSchema, type CatalogueEntry } from '@chat-relay/contract';
import { unwrap } from '@chat-relay/client';
import { useState } from 'react';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { SelectField, TextArea, TextField } from '../../components/field';
import { FormErrors } from '../../components/form-errors';
import { Page } from '../../components/page';
import { useBusyAction } from '../../hooks/use-busy-action';
import { useDebounced } from '../../hooks/use-debounced';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';

const count = (tokens: number | undefined) => (tokens === undefined ? '—' : tokens.toLocaleString('en-US'));
const dollars = (usd: number | undefined) => (usd === undefined ? '—' : `$${usd}`);

const COLUMNS: ReadonlyArray<Column<CatalogueEntry>> = [
  { id: 'id', header: 'Model', cell: (entry) => entry.id, sortValue: (entry) => entry.id },
  { id: 'provider', header: 'Provider', cell: (entry) => entry.provider ?? '—', sortValue: (entry) => entry.provider ?? '' },
  { id: 'source', header: 'Source', cell: (entry) => entry.source, sortValue: (entry) => entry.source },
  { id: 'context', header: 'Context', numeric: true, cell: (entry) => count(entry.context_window), sortValue: (entry) => entry.context_window ?? 0 },
  { id: 'output', header: 'Max output', numeric: true, cell: (entry) => count(entry.max_output_tokens), sortValue: (entry) => entry.max_output_tokens ?? 0 },
  { id: 'input-price', header: 'Input $/1M', numeric: true, cell: (entry) => dollars(entry.cost?.input), sortValue: (entry) => entry.cost?.input ?? -1 },
  { id: 'output-price', header: 'Output $/1M', numeric: true, cell: (entry) => dollars(entry.cost?.output), sortValue: (entry) => entry.cost?.output ?? -1 },
];

/** Rows drawn at once: a refresh from the whole of models.dev holds thousands; the search narrows them. */
const SHOWN_ROWS = 300;

const SOURCES = [
  { value: '', label: 'Any source' },
  { value: 'seed', label: 'Seed' },
  { value: 'refresh', label: 'Refresh' },
  { value: 'override', label: 'Override' },
];

/** An override's fields as typed (JSON), checked by the contract's schema before it is sent. */
function overrideFrom(id: string, text: string): { ok: true; body: Record<string, unknown> } | { ok: false; errors: string[] } {
  let parsed: unknown;
  try {
    parsed = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { ok: false, errors: ['The fields are not JSON, e.g. {"max_output_tokens": 16384}.'] };
  }
  const checked = CatalogueModelSchema.safeParse({ ...(parsed as object), id: id.trim() });
  if (!checked.success) return { ok: false, errors: checked.error.issues.map((issue) => `${issue.path.join('.') || 'fields'}: ${issue.message}`) };
  const { id: _id, ...fields } = checked.data;
  return { ok: true, body: fields };
}

/** The model catalogue (issue 28): what each model takes, allows and costs; overrides, refreshes, unpriced models. */
export function ModelsPage() {
  const { client } = useSession();
  const [query, setQuery] = useState('');
  const [source, setSource] = useState('');
  const [overrideId, setOverrideId] = useState('');
  const [overrideText, setOverrideText] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [status, setStatus] = useState('');
  const [generation, setGeneration] = useState(0);
  const q = useDebounced(query.trim(), 250);
  const action = useBusyAction();

  const catalogue = useLoad(
    async (signal) => unwrap(await client.api.catalogue.listCatalogue({ query: q === '' ? {} : { q }, fetchOptions: { signal } }), 200),
    `catalogue ${q} ${generation}`,
  );
  const unpriced = useLoad(async (signal) => unwrap(await client.api.catalogue.listUnpricedModels({ fetchOptions: { signal } }), 200), `unpriced ${generation}`);
  const changed = (message: string) => {
    setStatus(message);
    setGeneration((value) => value + 1);
  };

  const saveOverride = async () => {
    const outcome = overrideFrom(overrideId, overrideText);
    setErrors(outcome.ok ? [] : outcome.errors);
    if (!outcome.ok) return;
    const id = overrideId.trim();
    const saved = await action.run(async () => {
      const answer = await client.api.catalogue.putCatalogueOverride({ params: { id }, body: outcome.body });
      return answer.status === 201 ? unwrap(answer, 201) : unwrap(answer, 200);
    });
    if (saved) changed(`Saved the override of ${id}.`);
  };
  const deleteOverride = async () => {
    const id = overrideId.trim();
    const done = await action.run(async () => unwrap(await client.api.catalogue.deleteCatalogueOverride({ params: { id } }), 204) ?? true);
    if (done) changed(`Deleted the override of ${id}.`);
  };
  const edit = (entry: CatalogueEntry) => {
    const { id, source: _source, ...fields } = entry;
    setOverrideId(id);
    setOverrideText(JSON.stringify(entry.source === 'override' ? fields : {}, null, 2));
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    const dataset = await action.run(async () => {
      const json = JSON.parse(await file.text()) as Record<string, { id: string; models: Record<string, unknown> }>;
      return unwrap(await client.api.catalogue.refreshCatalogue({ body: json }), 200);
    });
    if (dataset) changed(`Loaded ${dataset.models} models from ${file.name}.`);
  };
  const reset = async () => {
    const dataset = await action.run(async () => unwrap(await client.api.catalogue.resetCatalogue(), 200));
    if (dataset) changed(`Back to the seed (${dataset.models} models).`);
  };

  const dataset = catalogue.data?.dataset;
  const rows = (catalogue.data?.data ?? []).filter((entry) => source === '' || entry.source === source);
  const editColumn: Column<CatalogueEntry> = {
    id: 'edit',
    header: 'Override',
    cell: (entry) => (
      <button type="button" onClick={() => edit(entry)}>
        Edit {entry.id}
      </button>
    ),
  };

  return (
    <Page title="Models">
      {dataset && (
        <p className="muted">
          {dataset.source === 'seed'
            ? `Seed: models.dev at ${dataset.commit?.slice(0, 7) ?? '?'} (${dataset.date}), ${dataset.models} models, shipped with the relay (MIT).`
            : `Refreshed from ${dataset.origin} at ${dataset.date}: ${dataset.models} models.`}{' '}
          Prices are list prices in US dollars per million tokens; the price table decides what is charged.
        </p>
      )}
      <ErrorNotice error={catalogue.error} title="Could not load the catalogue" />
      <ErrorNotice error={action.error} />
      <p role="status" className="muted">
        {status}
      </p>

      <h2>Unpriced models</h2>
      <ErrorNotice error={unpriced.error} title="Could not list unpriced models" />
      {unpriced.data && unpriced.data.data.length === 0 && <p className="muted">Every model the channels serve has a price.</p>}
      {unpriced.data && unpriced.data.data.length > 0 && (
        <ul aria-label="Unpriced models" className="outcome-bad">
          {unpriced.data.data.map((model) => (
            <li key={`${model.model} ${model.upstream_model}`}>
              {model.model}
              {model.upstream_model !== model.model && ` (sent as ${model.upstream_model})`} — on {model.channels.map((channel) => channel.name).join(', ')}: no price in
              the price table or the catalogue
            </li>
          ))}
        </ul>
      )}

      <h2>Override</h2>
      <div className="toolbar">
        <TextField label="Model id or glob" value={overrideId} onChange={(event) => setOverrideId(event.target.value)} />
        <TextArea
          label="Fields to change (JSON)"
          hint='e.g. {"max_output_tokens": 16384, "params": {"top_k": false}, "cost": {"input": 1, "output": 2}}'
          value={overrideText}
          onChange={(event) => setOverrideText(event.target.value)}
        />
        <button type="button" className="primary" disabled={overrideId.trim() === '' || action.busy} onClick={() => void saveOverride()}>
          Save override
        </button>
        <button type="button" disabled={overrideId.trim() === '' || action.busy} onClick={() => void deleteOverride()}>
          Delete override
        </button>
      </div>
      <FormErrors errors={errors} title="Nothing was saved" />

      <h2>Dataset</h2>
      <div className="toolbar">
        <TextField label="Refresh from models.dev api.json" type="file" accept="application/json,.json" onChange={(event) => void upload(event.target.files?.[0])} />
        <button type="button" disabled={dataset?.source !== 'refresh' || action.busy} onClick={() => void reset()}>
          Back to the seed
        </button>
      </div>

      <h2>Catalogue</h2>
      <div className="toolbar">
        <TextField label="Search models" type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
        <SelectField label="Source" options={SOURCES} value={source} onChange={(event) => setSource(event.target.value)} />
      </div>
      {catalogue.loading && !catalogue.data && <p role="status">Loading the catalogue…</p>}
      {catalogue.data && rows.length === 0 && <EmptyState title="No model matches">Change the search, or write an override for it above.</EmptyState>}
      {rows.length > SHOWN_ROWS && (
        <p className="muted">
          Showing {SHOWN_ROWS} of {rows.length} entries: search to narrow them.
        </p>
      )}
      {rows.length > 0 && <DataTable caption="Catalogue entries" columns={[...COLUMNS, editColumn]} rows={rows.slice(0, SHOWN_ROWS)} rowKey={(entry) => entry.id} />}
    </Page>
  );
}
