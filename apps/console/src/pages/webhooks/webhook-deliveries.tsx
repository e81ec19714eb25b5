import { DeliveryStatusSchema, type Webhook, type WebhookDelivery } from '@chat-relay/contract';
import { unwrap } from '@chat-relay/client';
import { useState } from 'react';
import { formatTime } from '../../api/format';
import { DataTable, type Column } from '../../components/data-table';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { SelectField } from '../../components/field';
import { Pager } from '../../components/pager';
import { useLoad } from '../../hooks/use-load';
import { useSession } from '../../session/session';
import { EVENT_LABELS, lastAttemptText } from './webhook-form';

const PER_PAGE = 20;
type DeliveryStatus = WebhookDelivery['status'];
const isStatus = (value: string): value is DeliveryStatus => DeliveryStatusSchema.safeParse(value).success;
const STATUS_BADGE: Readonly<Record<DeliveryStatus, string>> = { delivered: 'badge-ok', pending: 'badge-warn', failed: 'badge-bad' };

/**
 * `Recent deliveries`: each event's delivery to a webhook with its attempts so far, filtered by
 * webhook and status, a page at a time; the event's JSON (what the receiver got) expandable.
 * `refresh` changes when the page sent a test event, so the new delivery shows.
 */
export function WebhookDeliveries(props: { webhooks: readonly Webhook[]; refresh: number }) {
  const { client } = useSession();
  const [webhookId, setWebhookId] = useState('');
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [page, setPage] = useState(1);
  const list = useLoad(async (signal) => {
    const query = { page, per_page: PER_PAGE, ...(webhookId ? { webhook_id: Number(webhookId) } : {}), ...(status ? { status } : {}) };
    return unwrap(await client.api.webhooks.listWebhookDeliveries({ query, fetchOptions: { signal } }), 200);
  }, `${webhookId}|${status}|${page}|${props.refresh}`);
  const urlOf = (id: number) => props.webhooks.find((webhook) => webhook.id === id)?.url ?? `#${id}`;

  const columns: Column<WebhookDelivery>[] = [
    { id: 'created', header: 'Created', cell: (delivery) => formatTime(delivery.created_at), sortValue: (delivery) => delivery.created_at },
    { id: 'webhook', header: 'Webhook', cell: (delivery) => <span className="break">{urlOf(delivery.webhook_id)}</span> },
    {
      id: 'event',
      header: 'Event',
      cell: (delivery) => (
        <div className="stack">
          <span>{EVENT_LABELS[delivery.event_type]}</span>
          <code className="muted">{delivery.event_id}</code>
        </div>
      ),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (delivery) => <span className={`badge ${STATUS_BADGE[delivery.status]}`}>{delivery.status}</span>,
      sortValue: (delivery) => delivery.status,
    },
    { id: 'attempts', header: 'Attempts', numeric: true, cell: (delivery) => delivery.attempts, sortValue: (delivery) => delivery.attempts },
    { id: 'last', header: 'Last attempt', cell: lastAttemptText },
    {
      id: 'when',
      header: 'Delivered / next try',
      cell: (delivery) =>
        delivery.delivered_at ? `delivered ${formatTime(delivery.delivered_at)}` : delivery.next_attempt_at ? `next ${formatTime(delivery.next_attempt_at)}` : '—',
    },
    {
      id: 'json',
      header: 'JSON',
      cell: (delivery) => (
        <details className="delivery-event">
          <summary>Event JSON</summary>
          <pre>{JSON.stringify(delivery.event, null, 2)}</pre>
        </details>
      ),
    },
  ];
  const filtered = webhookId !== '' || status !== '';

  return (
    <section aria-labelledby="deliveries-title">
      <div className="page-header">
        <h2 id="deliveries-title">Recent deliveries</h2>
        <button type="button" onClick={list.reload}>
          Refresh deliveries
        </button>
      </div>
      <div className="toolbar">
        <SelectField
          label="Webhook"
          value={webhookId}
          options={[{ value: '', label: 'Any webhook' }, ...props.webhooks.map((webhook) => ({ value: String(webhook.id), label: webhook.url }))]}
          onChange={(event) => {
            setWebhookId(event.target.value);
            setPage(1);
          }}
        />
        <SelectField
          label="Delivery status"
          value={status}
          options={[{ value: '', label: 'Any status' }, ...DeliveryStatusSchema.options.map((option) => ({ value: option, label: option }))]}
          onChange={(event) => {
            setStatus(isStatus(event.target.value) ? event.target.value : '');
            setPage(1);
          }}
        />
      </div>
      <ErrorNotice error={list.error} title="Could not list the deliveries" />
      {list.loading && !list.data && <p role="status">Loading deliveries…</p>}
      {list.data && list.data.total === 0 && (
        <EmptyState title={filtered ? 'No deliveries match' : 'No deliveries yet'}>{!filtered && <p>Send a test event to a webhook to see one here.</p>}</EmptyState>
      )}
      {list.data && list.data.data.length > 0 && (
        <>
          <DataTable caption="Webhook deliveries" columns={columns} rows={list.data.data} rowKey={(delivery) => delivery.id} />
          <Pager page={list.data.page} perPage={PER_PAGE} total={list.data.total} onPage={setPage} label="Delivery pages" />
        </>
      )}
    </section>
  );
}
