import type { Assistant } from '@chat-relay/contract';
import { useState } from 'react';
import { formatTime } from '../../api/format';
import { unwrap } from '@chat-relay/client';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { Page } from '../../components/page';
import { Pager } from '../../components/pager';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { AssistantEditor } from './assistant-editor';
import { GizmoNameList } from './gizmo-name-list';

const PER_PAGE = 20;

/** Custom assistants (the server shows an account only its own), chatted with as `<family>-gizmo-<id>`. */
export function AssistantsPage() {
  const { client, isAdmin } = useSession();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Assistant | 'new' | null>(null);
  const [saved, setSaved] = useState<string>();
  const list = useLoad(
    async (signal) => unwrap(await client.api.assistants.listAssistants({ query: { page, per_page: PER_PAGE }, fetchOptions: { signal } }), 200),
    String(page),
  );
  // Only to write the gizmo names out in full; without it they show as a template.
  const callerModels = useLoad(async () => unwrap(await client.api.accounts.listCallerModels(), 200).data.map((model) => model.id), 'models');

  const remove = async (assistant: Assistant) => {
    unwrap(await client.api.assistants.deleteAssistant({ params: { id: assistant.id }, query: { account_id: assistant.account_id } }), 204);
    if (page > 1 && list.data?.data.length === 1) setPage(page - 1);
    else list.reload();
  };

  const columns: Column<Assistant>[] = [
    {
      id: 'name',
      header: 'Assistant',
      sortValue: (assistant) => assistant.name,
      cell: (assistant) => (
        <div className="stack">
          <strong>{assistant.name}</strong>
          {assistant.description && <small className="muted">{assistant.description}</small>}
          <small className="muted">
            <code>{assistant.id}</code>
            {isAdmin && ` · account #${assistant.account_id}`}
          </small>
        </div>
      ),
    },
    { id: 'model-name', header: 'Model name', cell: (assistant) => <GizmoNameList assistant={assistant} callerModels={callerModels.data ?? []} /> },
    { id: 'families', header: 'Families', sortValue: (assistant) => assistant.models?.join(', '), cell: (assistant) => assistant.models?.join(', ') ?? 'any' },
    { id: 'visibility', header: 'Visibility', sortValue: (assistant) => assistant.visibility, cell: (assistant) => assistant.visibility },
    { id: 'tools', header: 'Tools', numeric: true, sortValue: (assistant) => assistant.tools.length, cell: (assistant) => assistant.tools.length },
    { id: 'updated', header: 'Updated', sortValue: (assistant) => assistant.updated_at, cell: (assistant) => formatTime(assistant.updated_at) },
    {
      id: 'actions',
      header: 'Actions',
      cell: (assistant) => (
        <div className="toolbar">
          <button type="button" onClick={() => setEditing(assistant)}>
            Edit
          </button>
          <ConfirmAction question={`Delete assistant “${assistant.name}”? Callers using its name get an error.`} onConfirm={() => remove(assistant)} />
        </div>
      ),
    },
  ];

  return (
    <Page
      title="Assistants"
      actions={
        <button
          type="button"
          className="primary"
          onClick={() => {
            setSaved(undefined);
            setEditing('new');
          }}
        >
          New assistant
        </button>
      }
    >
      {editing && (
        <AssistantEditor
          key={editing === 'new' ? 'new' : `${editing.account_id}/${editing.id}`}
          assistant={editing === 'new' ? undefined : editing}
          onSaved={(assistant) => {
            setSaved(`${editing === 'new' ? 'Created' : 'Saved'} assistant “${assistant.name}” (${assistant.id}).`);
            setEditing(null);
            list.reload();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      <p role="status" className="muted">
        {saved}
      </p>
      <ErrorNotice error={list.error} title="Could not list the assistants" />
      {list.loading && !list.data && <p role="status">Loading assistants…</p>}
      {list.data && list.data.total === 0 && (
        <EmptyState title="No assistants yet">
          An assistant is a system prompt with settings and tools that callers reach by a model name such as gpt-4o-gizmo-g-support. Press{' '}
          <strong>New assistant</strong> to make one.
        </EmptyState>
      )}
      {list.data && list.data.total > 0 && (
        <>
          <DataTable caption="Assistants" columns={columns} rows={list.data.data} rowKey={(assistant) => `${assistant.account_id}/${assistant.id}`} />
          <Pager page={page} perPage={PER_PAGE} total={list.data.total} onPage={setPage} label="Assistant pages" />
        </>
      )}
    </Page>
  );
}
