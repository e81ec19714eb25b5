import type { WebhookEvent, WebhookEventType } from '@chat-relay/contract';
import type { Page, PageRequest } from './common-types';

/**
 * Webhooks and their deliveries (issue 32). An event is queued as one delivery row per webhook
 * that takes it; a worker claims due rows under a lease, POSTs them and records each attempt.
 * Alert marks make a threshold crossing alert once per window, across instances.
 */
export interface WebhookRecord {
  id: number;
  url: string;
  /** null: every event type. */
  events: WebhookEventType[] | null;
  enabled: boolean;
  /** The signing secret, plain (the server's store opens it; the table holds it sealed). */
  secret: string;
  secretHint: string;
  createdAt: string;
  updatedAt: string;
}

export type NewWebhook = Pick<WebhookRecord, 'url' | 'events' | 'enabled' | 'secret' | 'secretHint'>;
export type WebhookPatch = Partial<Pick<WebhookRecord, 'url' | 'events' | 'enabled'>>;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveryRecord {
  id: number;
  webhookId: number;
  eventId: string;
  eventType: WebhookEventType;
  /** The body POSTed, the same bytes on every attempt. */
  event: WebhookEvent;
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  /** When it is next tried; null once delivered or failed. */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  /** Until when an instance holds it for an attempt (see `claimDue`). */
  leaseUntil: string | null;
}

/** What one attempt ended with: delivered, pending again (tried later) or failed for good. */
export interface DeliveryAttempt {
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
}

/** The mark a threshold crossing writes first: the event is queued only by whoever inserted it. */
export interface AlertMark {
  key: string;
  /** When it may be forgotten (a window's reset); null: kept (the lifetime quota's). */
  expiresAt: string | null;
}

export interface DeliveryListRequest extends PageRequest {
  webhookId?: number;
  status?: DeliveryStatus;
}

export interface EnqueueOptions {
  /** Only this webhook, whatever its filter and state (a test event); else every enabled one taking the type. */
  webhookId?: number;
  /** Queued only when this mark is new: inserted in the same transaction, nothing queued when it existed. */
  mark?: AlertMark;
}

export interface WebhookStore {
  create(input: NewWebhook, now: string): Promise<WebhookRecord>;
  get(id: number): Promise<WebhookRecord | undefined>;
  list(): Promise<WebhookRecord[]>;
  update(id: number, patch: WebhookPatch, now: string): Promise<WebhookRecord | undefined>;
  /** Its deliveries go with it. */
  delete(id: number): Promise<boolean>;
  /**
   * Queues `event` (pending, due now) in one transaction; answers the deliveries made, or
   * undefined when `options.mark` existed already (another pass or instance queued it).
   */
  enqueue(event: WebhookEvent, now: string, options?: EnqueueOptions): Promise<WebhookDeliveryRecord[] | undefined>;
  /**
   * Takes up to `limit` pending deliveries whose `nextAttemptAt` ≤ `now` and whose lease (if any)
   * ended before `now`, oldest due first, and leases them until `leaseUntil`: instances sharing
   * the database never send the same attempt at once.
   */
  claimDue(now: string, leaseUntil: string, limit: number): Promise<WebhookDeliveryRecord[]>;
  /** Records an attempt's outcome and gives the lease up. */
  recordAttempt(id: number, attempt: DeliveryAttempt): Promise<WebhookDeliveryRecord | undefined>;
  getDelivery(id: number): Promise<WebhookDeliveryRecord | undefined>;
  /** Newest first. */
  listDeliveries(request: DeliveryListRequest): Promise<Page<WebhookDeliveryRecord>>;
  /**
   * Deletes up to `limit` deliveries created before `before` that are no longer pending, and the
   * alert marks whose `expiresAt` passed `before`; answers the deliveries deleted.
   */
  purgeBefore(before: string, limit: number): Promise<number>;
  /**
   * Start-up: every secret not sealed with the current secret key (one sealed under
   * RELAY_SECRET_KEY_PREVIOUS) sealed with it; answers how many. One that does not open is left.
   */
  resealSecrets(): Promise<number>;
}

/** The table as a backend keeps it (secrets as stored); sealed-webhook-secrets.ts wraps it. */
export interface StoredWebhookStore extends Omit<WebhookStore, 'resealSecrets'> {
  /** Replaces the stored secret if it is still `expected` (another instance may have resealed it). */
  rewriteSecret(id: number, expected: string, next: string): Promise<boolean>;
}
