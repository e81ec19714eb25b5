import {
  WebhookCreateSchema,
  WebhookEventTypeSchema,
  WebhookUpdateSchema,
  type Webhook,
  type WebhookCreate,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookUpdate,
} from '@chat-relay/contract';
import { formIssues, type FormOutcome } from '../../api/form-issues';

/** A webhook as its form holds it. */
export interface WebhookFormValues {
  url: string;
  /** Every event type, now and to come (`events: null`). */
  allEvents: boolean;
  /** The chosen types when not every one. */
  events: WebhookEventType[];
  enabled: boolean;
  /** Create only; empty = the relay generates one (shown once). */
  secret: string;
}

/** The events an operator subscribes to (a `test` event goes to the webhook it is sent to, whatever it subscribes to). */
export const SUBSCRIBABLE_EVENTS = WebhookEventTypeSchema.options.filter((type) => type !== 'test');

export const EVENT_LABELS: Readonly<Record<WebhookEventType, string>> = {
  'limit.threshold': 'Limit threshold crossed',
  'channel.circuit_opened': 'Channel circuit opened',
  'channel.circuit_closed': 'Channel circuit closed',
  'channel.key_disabled': 'Channel key disabled',
  test: 'Test event',
};

const LABELS = { url: 'URL', events: 'Events', enabled: 'Enabled', secret: 'Secret' };

export const emptyWebhookForm = (): WebhookFormValues => ({ url: '', allEvents: true, events: [], enabled: true, secret: '' });

export const webhookFormFrom = (webhook: Webhook): WebhookFormValues => ({
  url: webhook.url,
  allEvents: webhook.events === null,
  events: webhook.events ?? [],
  enabled: webhook.enabled,
  secret: '',
});

/** The events as sent: null for all; the chosen ones in the list's order; an error when none is chosen. */
function eventsOf(values: WebhookFormValues): { value: WebhookEventType[] | null } | { error: string } {
  if (values.allEvents) return { value: null };
  const chosen = SUBSCRIBABLE_EVENTS.filter((type) => values.events.includes(type));
  return chosen.length > 0 ? { value: chosen } : { error: 'Events: choose at least one, or All events' };
}

/** `POST /api/webhooks` body, checked against the contract. */
export function toWebhookCreate(values: WebhookFormValues): FormOutcome<WebhookCreate> {
  const events = eventsOf(values);
  if ('error' in events) return { ok: false, errors: [events.error] };
  const body: Record<string, unknown> = { url: values.url.trim(), events: events.value, enabled: values.enabled };
  if (values.secret.trim() !== '') body['secret'] = values.secret.trim();
  const parsed = WebhookCreateSchema.safeParse(body);
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors: formIssues(parsed.error.issues, LABELS) };
}

const sameEvents = (a: readonly WebhookEventType[] | null, b: readonly WebhookEventType[] | null): boolean =>
  a === null || b === null ? a === b : a.length === b.length && a.every((type) => b.includes(type));

/** `PATCH /api/webhooks/{id}` body: what changed. */
export function toWebhookUpdate(values: WebhookFormValues, original: Webhook): FormOutcome<WebhookUpdate> {
  const events = eventsOf(values);
  if ('error' in events) return { ok: false, errors: [events.error] };
  const body: Record<string, unknown> = {};
  if (values.url.trim() !== original.url) body['url'] = values.url.trim();
  if (!sameEvents(events.value, original.events)) body['events'] = events.value;
  if (values.enabled !== original.enabled) body['enabled'] = values.enabled;
  if (Object.keys(body).length === 0) return { ok: false, errors: ['Nothing changed.'] };
  const parsed = WebhookUpdateSchema.safeParse(body);
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, errors: formIssues(parsed.error.issues, LABELS) };
}

/** A webhook's events in a cell: `All events` or their labels. */
export const eventsText = (events: readonly WebhookEventType[] | null): string => (events === null ? 'All events' : events.map((type) => EVENT_LABELS[type]).join(', '));

/** The last attempt of a delivery in words: `HTTP 500 · connection refused`, `not tried yet`. */
export function lastAttemptText(delivery: Pick<WebhookDelivery, 'attempts' | 'last_status' | 'last_error'>): string {
  if (delivery.attempts === 0) return 'not tried yet';
  const parts = [delivery.last_status === null ? 'no answer' : `HTTP ${delivery.last_status}`, delivery.last_error].filter(Boolean);
  return parts.join(' · ');
}
