import type { WebhookEvent, WebhookEventType } from '@chat-relay/contract';
import type { Clock } from '../core/limit-windows';
import type { Logger } from '../logger';
import { randomBase62 } from '../security/keys';
import type { AlertMark, WebhookDeliveryRecord, WebhookStore } from '../storage/types';

/** A new event body; its id stays the same on every attempt of every delivery. */
export function webhookEvent(type: WebhookEventType, data: Record<string, unknown>, nowMs: number): WebhookEvent {
  return { id: `evt_${randomBase62(24)}`, type, created_at: new Date(nowMs).toISOString(), data };
}

/**
 * Where events are queued: one delivery row per webhook that takes the event, written off the
 * hot path (callers never wait for it), the worker told to look now. A failed write is logged
 * and lost — an alert is not worth failing anything else for.
 */
export class WebhookEvents {
  constructor(
    private readonly store: WebhookStore,
    private readonly logger: Logger,
    private readonly clock: Clock,
    /** Told after deliveries were queued (the worker sends them without waiting for its tick). */
    private readonly queued: () => void = () => undefined,
  ) {}

  /**
   * Queues an event to every enabled webhook taking its type. With `mark`: only when the mark is
   * new (a threshold crossing another pass or instance queued already is not queued again).
   * Answers the deliveries (undefined: the mark existed, or the write failed).
   */
  async emit(type: WebhookEventType, data: Record<string, unknown>, mark?: AlertMark): Promise<WebhookDeliveryRecord[] | undefined> {
    const now = this.clock();
    try {
      const made = await this.store.enqueue(webhookEvent(type, data, now), new Date(now).toISOString(), mark ? { mark } : {});
      if (made && made.length > 0) this.queued();
      return made;
    } catch (error) {
      this.logger.error({ err: error, event: type }, 'webhook event could not be queued; it is not sent');
      return undefined;
    }
  }

  /** A `test` event to one webhook, whatever its filter and state; throws what the store throws (the route answers it). */
  async test(webhookId: number): Promise<WebhookDeliveryRecord | undefined> {
    const now = this.clock();
    const event = webhookEvent('test', { message: 'A test event from chat-relay.' }, now);
    const [delivery] = (await this.store.enqueue(event, new Date(now).toISOString(), { webhookId })) ?? [];
    if (delivery) this.queued();
    return delivery;
  }
}
