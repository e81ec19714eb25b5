import type { Webhook } from '@chat-relay/contract';
import { unwrap } from '@chat-relay/client';
import { useState } from 'react';
import { formatTime } from '../../api/format';
import { ConfirmAction } from '../../components/confirm-action';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { KeyShownOnce } from '../../components/key-shown-once';
import { Page } from '../../components/page';
import { useBusyAction } from '../../hooks/use-busy-action';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookEditor } from './webhook-editor';
import { eventsText } from './webhook-form';

/** The admin's webhooks (alerts and channel events, issue 32): list, create (the secret shown once), edit, delete, test; recent deliveries. */
export function WebhooksPage() {
  const { client } = useSession();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [outcome, setOutcome] = useState('');
  const [refresh, setRefresh] = useState(0);
  const test = useBusyAction();
  const list = useLoad(async (signal) => unwrap(await client.api.webhooks.listWebhooks({ fetchOptions: { signal } }), 200), 'webhooks');

  const remove = async (webhook: Webhook) => {
    unwrap(await client.api.webhooks.deleteWebhook({ params: { id: webhook.id } }), 204);
    setOutcome(`Deleted webhook ${webhook.url}.`);
    list.reload();
  };
  const sendTest = async (webhook: Webhook) => {
    const delivery = await test.run(async () => unwrap(await client.api.webhooks.testWebhook({ params: { id: webhook.id } }), 202));
    if (delivery) {
      setOutcome(`Test event ${delivery.event_id} queued for ${webhook.url}.`);
      setRefresh((value) => value + 1);
    }
  };

  const columns: Column<Webhook>[] = [
    { id: 'url', header: 'URL', sortValue: (webhook) => webhook.url, cell: (webhook) => <span id={`webhook-url-${webhook.id}`}>{webhook.url}</span> },
    { id: 'events', header: 'Events', cell: (webhook) => eventsText(webhook.events) },
    {
      id: 'enabled',
      header: 'Enabled',
      sortValue: (webhook) => String(webhook.enabled),
      cell: (webhook) => <span className={`badge ${webhook.enabled ? 'badge-ok' : 'badge-bad'}`}>{webhook.enabled ? 'enabled' : 'disabled'}</span>,
    },
    { id: 'secret', header: 'Secret', cell: (webhook) => <code>{webhook.secret_hint}</code> },
    { id: 'created', header: 'Created', sortValue: (webhook) => webhook.created_at, cell: (webhook) => formatTime(webhook.created_at) },
    {
      id: 'actions',
      header: 'Actions',
      cell: (webhook) => (
        <div className="toolbar">
          <button type="button" aria-describedby={`webhook-url-${webhook.id}`} onClick={() => setEditing(webhook)}>
            Edit
          </button>
          <button type="button" aria-describedby={`webhook-url-${webhook.id}`} disabled={test.busy} onClick={() => void sendTest(webhook)}>
            Send test event
          </button>
          <ConfirmAction question={`Delete the webhook to ${webhook.url}? Its deliveries stop.`} onConfirm={() => remove(webhook)} />
        </div>
      ),
    },
  ];

  return (
    <Page
      title="Webhooks"
      actions={
        <button
          type="button"
          className="primary"
          onClick={() => {
            setCreated(null);
            setEditing('new');
          }}
        >
          New webhook
        </button>
      }
    >
      <p className="muted">
        Alerts (a token or account crossing a threshold of a limit) and channel events, POSTed as JSON and signed with the webhook’s secret
        (header <code>x-relay-signature</code>).
      </p>
      {created && (
        <KeyShownOnce
          title={`Secret of the webhook to ${created.url}`}
          explanation="Copy it now: it is shown only this once. Your receiver checks each delivery's signature with it."
          secret={created.secret}
          testId="new-webhook-secret"
          copyLabel="Copy secret"
          takeFocus
          onDone={() => setCreated(null)}
        />
      )}
      {editing && (
        <WebhookEditor
          key={editing === 'new' ? 'new' : editing.id}
          webhook={editing === 'new' ? undefined : editing}
          onCreated={(webhook) => {
            setEditing(null);
            setCreated({ url: webhook.url, secret: webhook.secret });
            setOutcome('');
            list.reload();
          }}
          onSaved={(webhook) => {
            setEditing(null);
            setOutcome(`Saved webhook ${webhook.url}.`);
            list.reload();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      <p role="status" className="muted">
        {outcome}
      </p>
      <ErrorNotice error={test.error} title="Could not send the test event" />
      <ErrorNotice error={list.error} title="Could not list the webhooks" />
      {list.loading && !list.data && <p role="status">Loading webhooks…</p>}
      {list.data && list.data.data.length === 0 && (
        <EmptyState title="No webhooks yet">
          <p>Add one with New webhook to hear of limits reached and channels failing.</p>
        </EmptyState>
      )}
      {list.data && list.data.data.length > 0 && <DataTable caption="Webhooks" columns={columns} rows={list.data.data} rowKey={(webhook) => webhook.id} />}
      <WebhookDeliveries webhooks={list.data?.data ?? []} refresh={refresh} />
    </Page>
  );
}
