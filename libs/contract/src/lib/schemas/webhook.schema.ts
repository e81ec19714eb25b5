import { z } from 'zod';
import { pageOf, PageQuerySchema, TimestampSchema } from './common.schema';
import { LimitMetricSchema, LimitPeriodSchema } from './limits.schema';

/**
 * Webhooks (issue 32): events POSTed as JSON to the operator's URLs, signed with HMAC-SHA256,
 * retried with back-off, delivered at least once and deduplicated by the event's `id`.
 */
export const WebhookEventTypeSchema = z.enum([
  /** A token or an account crossed an alert threshold of a limit (lifetime quota or a window). */
  'limit.threshold',
  'channel.circuit_opened',
  'channel.circuit_closed',
  'channel.key_disabled',
  /** Sent from the console or `POST /api/webhooks/{id}/test`. */
  'test',
]);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** Headers of every delivery. The signature is `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-relay-signature';
export const WEBHOOK_EVENT_ID_HEADER = 'x-relay-event-id';
export const WEBHOOK_EVENT_TYPE_HEADER = 'x-relay-event';

/** What a `limit.threshold` event tells. */
export const LimitThresholdDataSchema = z.object({
  owner: z.enum(['token', 'account']),
  token_id: z.number().int().nullable(),
  account_id: z.number().int(),
  name: z.string(),
  /** `lifetime` for the quota; else the window's period and metric. */
  window: z.union([
    z.literal('lifetime'),
    z.object({ period: LimitPeriodSchema, metric: LimitMetricSchema, time_zone: z.string(), starts_at: TimestampSchema, resets_at: TimestampSchema }),
  ]),
  used: z.number(),
  limit: z.number(),
  ratio: z.number(),
  /** Percent crossed: 50, 80, 100. */
  threshold: z.number().int(),
});

/** What a channel event tells. */
export const ChannelEventDataSchema = z.object({
  channel_id: z.number().int(),
  channel_name: z.string(),
  /** For `channel.key_disabled`: the key's hint and the reason; never the key. */
  key_hint: z.string().nullable(),
  reason: z.string().nullable(),
});

/** The JSON body of a delivery. */
export const WebhookEventSchema = z.object({
  /** Stable across retries: a receiver drops an id it has seen. */
  id: z.string(),
  type: WebhookEventTypeSchema,
  created_at: TimestampSchema,
  data: z.record(z.unknown()),
});
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

export const WebhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  /** null: every event type. */
  events: z.array(WebhookEventTypeSchema).nullable(),
  enabled: z.boolean(),
  /** The secret's last characters. */
  secret_hint: z.string(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Webhook = z.infer<typeof WebhookSchema>;

/** http(s) only. */
const WebhookUrlSchema = z
  .string()
  .trim()
  .url()
  .max(2000)
  .refine((url) => /^https?:\/\//i.test(url), { message: 'must be an http or https URL' });

export const WebhookCreateSchema = z
  .object({
    url: WebhookUrlSchema,
    events: z.array(WebhookEventTypeSchema).min(1).nullable().optional(),
    enabled: z.boolean().optional(),
    /** Generated when not given (`whsec_` + 32 base62 characters); shown once. */
    secret: z.string().min(16).max(200).optional(),
  })
  .strict();
export type WebhookCreate = z.infer<typeof WebhookCreateSchema>;

/** The new webhook and its secret, shown this once. */
export const WebhookCreatedSchema = WebhookSchema.extend({ secret: z.string() });

export const WebhookUpdateSchema = z
  .object({
    url: WebhookUrlSchema,
    events: z.array(WebhookEventTypeSchema).min(1).nullable(),
    enabled: z.boolean(),
  })
  .partial()
  .strict()
  .refine((update) => Object.keys(update).length > 0, 'must change at least one field');
export type WebhookUpdate = z.infer<typeof WebhookUpdateSchema>;

export const WebhookListSchema = z.object({ data: z.array(WebhookSchema) });

export const DeliveryStatusSchema = z.enum(['pending', 'delivered', 'failed']);

/** One event's delivery to one webhook, with its attempts so far. */
export const WebhookDeliverySchema = z.object({
  id: z.number().int(),
  webhook_id: z.number().int(),
  event_id: z.string(),
  event_type: WebhookEventTypeSchema,
  status: DeliveryStatusSchema,
  attempts: z.number().int(),
  /** The receiver's last HTTP status; null when it could not be reached. */
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: TimestampSchema,
  next_attempt_at: TimestampSchema.nullable(),
  delivered_at: TimestampSchema.nullable(),
  event: WebhookEventSchema,
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryQuerySchema = PageQuerySchema.extend({
  webhook_id: z.coerce.number().int().min(1).optional(),
  status: DeliveryStatusSchema.optional(),
}).strict();
export const WebhookDeliveryPageSchema = pageOf(WebhookDeliverySchema);
