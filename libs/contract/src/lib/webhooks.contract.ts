import { initContract } from '@ts-rest/core';
import { commonResponses, meta } from './common-responses';
import { IdParamSchema } from './schemas/common.schema';
import {
  WebhookCreatedSchema,
  WebhookCreateSchema,
  WebhookDeliveryPageSchema,
  WebhookDeliveryQuerySchema,
  WebhookDeliverySchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookUpdateSchema,
} from './schemas/webhook.schema';

const c = initContract();
const admin = meta({ auth: 'admin' });

/** Webhooks for alerts and channel events, and their deliveries (issue 32). */
export const webhooksContract = c.router(
  {
    listWebhooks: { method: 'GET', path: '/api/webhooks', responses: { 200: WebhookListSchema }, metadata: admin },
    createWebhook: { method: 'POST', path: '/api/webhooks', body: WebhookCreateSchema, responses: { 201: WebhookCreatedSchema }, metadata: admin },
    // Fixed path before /:id.
    listWebhookDeliveries: {
      method: 'GET',
      path: '/api/webhooks/deliveries',
      query: WebhookDeliveryQuerySchema,
      responses: { 200: WebhookDeliveryPageSchema },
      metadata: admin,
    },
    updateWebhook: {
      method: 'PATCH',
      path: '/api/webhooks/:id',
      pathParams: IdParamSchema,
      body: WebhookUpdateSchema,
      responses: { 200: WebhookSchema },
      metadata: admin,
    },
    deleteWebhook: { method: 'DELETE', path: '/api/webhooks/:id', pathParams: IdParamSchema, responses: { 204: c.noBody() }, metadata: admin },
    /** Queues a `test` event to this webhook and answers its delivery (pending). */
    testWebhook: {
      method: 'POST',
      path: '/api/webhooks/:id/test',
      pathParams: IdParamSchema,
      body: c.noBody(),
      responses: { 202: WebhookDeliverySchema },
      metadata: admin,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
