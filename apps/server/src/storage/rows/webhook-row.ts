import type { WebhookEvent, WebhookEventType } from '@chat-relay/contract';
import type { DeliveryStatus, WebhookDeliveryRecord, WebhookRecord } from '../webhook-types';
import { flagOf, requiredJson, type JsonColumn, type RowCodec } from './codec';

/** A `webhooks` row as either backend reads it; `secret` as stored (sealed). */
export interface WebhookRow {
  id: number;
  url: string;
  events: JsonColumn<WebhookEventType[]> | null;
  enabled: number | boolean;
  secret: string;
  secret_hint: string;
  created_at: string;
  updated_at: string;
}

/** A `webhook_deliveries` row as either backend reads it. */
export interface DeliveryRow {
  id: number;
  webhook_id: number;
  event_id: string;
  event_type: WebhookEventType;
  event: JsonColumn<WebhookEvent>;
  status: DeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  next_attempt_at: string | null;
  delivered_at: string | null;
  lease_until: string | null;
}

export const webhookRecordOf = (row: WebhookRow, codec: RowCodec): WebhookRecord => ({
  id: Number(row.id),
  url: row.url,
  events: codec.json(row.events),
  enabled: flagOf(row.enabled),
  secret: row.secret,
  secretHint: row.secret_hint,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const deliveryRecordOf = (row: DeliveryRow, codec: RowCodec): WebhookDeliveryRecord => ({
  id: Number(row.id),
  webhookId: Number(row.webhook_id),
  eventId: row.event_id,
  eventType: row.event_type,
  event: requiredJson(codec, row.event),
  status: row.status,
  attempts: row.attempts,
  lastStatus: row.last_status,
  lastError: row.last_error,
  createdAt: row.created_at,
  nextAttemptAt: row.next_attempt_at,
  deliveredAt: row.delivered_at,
  leaseUntil: row.lease_until,
});

/** Whether a webhook takes an event of `type` (enabled, and its filter names the type or is null). */
export const takesEvent = (webhook: Pick<WebhookRecord, 'enabled' | 'events'>, type: WebhookEventType): boolean =>
  webhook.enabled && (webhook.events === null || webhook.events.includes(type));

/** Oldest due first, then by id: the order claims are answered in on both backends. */
export const byDueTime = (a: WebhookDeliveryRecord, b: WebhookDeliveryRecord): number =>
  (a.nextAttemptAt ?? '').localeCompare(b.nextAttemptAt ?? '') || a.id - b.id;
