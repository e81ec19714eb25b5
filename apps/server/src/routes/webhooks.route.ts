import type { Webhook, WebhookDelivery } from '@chat-relay/contract';
import { webhooksContract } from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { notFound } from '@chat-relay/wire';
import type { WebhookEvents } from '../alerts/webhook-events';
import { generateWebhookSecret, webhookSecretHint } from '../alerts/sign-webhook';
import type { WebhookDeliveryRecord, WebhookRecord, WebhookStore } from '../storage/types';
import { assertPageInRange } from './paging';

export interface WebhookRouteDeps {
  webhooks: WebhookStore;
  events: WebhookEvents;
}

const webhookNotFound = (id: number) => notFound('webhook_not_found', `No webhook with id ${id}.`, 'id');

/** A webhook as shown: the secret never, only its hint. */
export const webhookView = (record: WebhookRecord): Webhook => ({
  id: record.id,
  url: record.url,
  events: record.events,
  enabled: record.enabled,
  secret_hint: record.secretHint,
  created_at: record.createdAt,
  updated_at: record.updatedAt,
});

export const deliveryView = (record: WebhookDeliveryRecord): WebhookDelivery => ({
  id: record.id,
  webhook_id: record.webhookId,
  event_id: record.eventId,
  event_type: record.eventType,
  status: record.status,
  attempts: record.attempts,
  last_status: record.lastStatus,
  last_error: record.lastError,
  created_at: record.createdAt,
  next_attempt_at: record.nextAttemptAt,
  delivered_at: record.deliveredAt,
  event: record.event,
});

/**
 * Webhooks (issue 32), for the admin: CRUD, the recent deliveries, and a test event. The signing
 * secret is generated when not given and answered once, on create; it is stored sealed.
 */
export function webhooksRouter(deps: WebhookRouteDeps) {
  const s = initServer();
  return s.router(webhooksContract, {
    listWebhooks: async () => ({ status: 200, body: { data: (await deps.webhooks.list()).map(webhookView) } }),
    createWebhook: async ({ body }) => {
      const secret = body.secret ?? generateWebhookSecret();
      const created = await deps.webhooks.create(
        { url: body.url, events: body.events ?? null, enabled: body.enabled ?? true, secret, secretHint: webhookSecretHint(secret) },
        new Date().toISOString(),
      );
      return { status: 201, body: { ...webhookView(created), secret } };
    },
    listWebhookDeliveries: async ({ query }) => {
      const page = await deps.webhooks.listDeliveries({ page: query.page, perPage: query.per_page, webhookId: query.webhook_id, status: query.status });
      assertPageInRange(query.page, query.per_page, page.total);
      return { status: 200, body: { data: page.rows.map(deliveryView), total: page.total, page: query.page, per_page: query.per_page } };
    },
    updateWebhook: async ({ params, body }) => {
      const updated = await deps.webhooks.update(params.id, body, new Date().toISOString());
      if (!updated) throw webhookNotFound(params.id);
      return { status: 200, body: webhookView(updated) };
    },
    deleteWebhook: async ({ params }) => {
      if (!(await deps.webhooks.delete(params.id))) throw webhookNotFound(params.id);
      return { status: 204, body: undefined };
    },
    testWebhook: async ({ params }) => {
      const delivery = await deps.events.test(params.id);
      if (!delivery) throw webhookNotFound(params.id);
      return { status: 202, body: deliveryView(delivery) };
    },
  });
}
