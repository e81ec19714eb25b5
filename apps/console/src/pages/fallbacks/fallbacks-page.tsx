import type { FallbackRule } from '@chat-relay/contract';
import { unwrap } from '@chat-relay/client';
import { useState } from 'react';
import { formatTime } from '../../api/format';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { Page } from '../../components/page';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { FallbackEditor } from './fallback-editor';
import { TRIGGER_LABELS } from './fallback-form';

/**
 * The admin's fallback chains across models (issue 32): when a model has no channel left and the
 * failure is one of the rule's triggers, the next model answers — before the caller sees a byte.
 */
export function FallbacksPage() {
  const { client } = useSession();
  const [editing, setEditing] = useState<FallbackRule | 'new' | null>(null);
  const [outcome, setOutcome] = useState('');
  const list = useLoad(async (signal) => unwrap(await client.api.fallbacks.listFallbackRules({ fetchOptions: { signal } }), 200), 'fallbacks');

  const remove = async (rule: FallbackRule) => {
    unwrap(await client.api.fallbacks.deleteFallbackRule({ params: { id: rule.id } }), 204);
    setOutcome(`Deleted the fallback rule for ${rule.model}.`);
    list.reload();
  };

  const columns: Column<FallbackRule>[] = [
    { id: 'model', header: 'Model', sortValue: (rule) => rule.model, cell: (rule) => <code id={`fallback-model-${rule.id}`}>{rule.model}</code> },
    {
      id: 'chain',
      header: 'Falls back to',
      cell: (rule) => (
        <ol className="fallback-chain" aria-label={`Fallbacks of ${rule.model}`}>
          {rule.fallbacks.map((model) => (
            <li key={model}>{model}</li>
          ))}
        </ol>
      ),
    },
    { id: 'triggers', header: 'Triggers', cell: (rule) => rule.triggers.map((trigger) => TRIGGER_LABELS[trigger]).join(', ') },
    {
      id: 'enabled',
      header: 'Enabled',
      sortValue: (rule) => String(rule.enabled),
      cell: (rule) => <span className={`badge ${rule.enabled ? 'badge-ok' : 'badge-bad'}`}>{rule.enabled ? 'enabled' : 'disabled'}</span>,
    },
    { id: 'updated', header: 'Updated', sortValue: (rule) => rule.updated_at, cell: (rule) => formatTime(rule.updated_at) },
    {
      id: 'actions',
      header: 'Actions',
      cell: (rule) => (
        <div className="toolbar">
          <button type="button" aria-describedby={`fallback-model-${rule.id}`} onClick={() => setEditing(rule)}>
            Edit
          </button>
          <ConfirmAction question={`Delete the fallback rule for ${rule.model}?`} onConfirm={() => remove(rule)} />
        </div>
      ),
    },
  ];

  return (
    <Page
      title="Fallbacks"
      actions={
        <button type="button" className="primary" onClick={() => setEditing('new')}>
          New fallback rule
        </button>
      }
    >
      <p className="muted">
        A retry first tries the model’s other channels; when none is left and the failure is a ticked trigger, the next model of the chain answers.
        A request may also name its own chain (<code>models: [...]</code> or <code>fallbacks: [...]</code>).
      </p>
      {editing && (
        <FallbackEditor
          key={editing === 'new' ? 'new' : editing.id}
          rule={editing === 'new' ? undefined : editing}
          onSaved={(rule, created) => {
            setEditing(null);
            setOutcome(`${created ? 'Created' : 'Saved'} the fallback rule for ${rule.model}.`);
            list.reload();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      <p role="status" className="muted">
        {outcome}
      </p>
      <ErrorNotice error={list.error} title="Could not list the fallback rules" />
      {list.loading && !list.data && <p role="status">Loading fallback rules…</p>}
      {list.data && list.data.data.length === 0 && (
        <EmptyState title="No fallback rules yet">
          <p>Add one with New fallback rule, e.g. claude-* falling back to gpt-4o when rate limited.</p>
        </EmptyState>
      )}
      {list.data && list.data.data.length > 0 && <DataTable caption="Fallback rules" columns={columns} rows={list.data.data} rowKey={(rule) => rule.id} />}
    </Page>
  );
}
