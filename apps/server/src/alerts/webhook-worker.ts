import { WEBHOOK_EVENT_ID_HEADER, WEBHOOK_EVENT_TYPE_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@chat-relay/contract';
import type { Clock } from '../core/limit-windows';
import { mapBounded } from '../core/map-bounded';
import { throttledWarn, type ThrottledWarn } from '../core/throttled-log';
import type { Logger } from '../logger';
import { RELAY_VERSION } from '../version';
import type { DeliveryAttempt, WebhookDeliveryRecord, WebhookRecord, WebhookStore } from '../storage/types';
import { nextAttemptAt, type DeliveryPolicy } from './delivery-backoff';
import { signatureHeader } from './sign-webhook';

export interface WebhookWorkerOptions extends DeliveryPolicy {
  /** How long a receiver has to answer (RELAY_WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Deliveries kept this long after their last attempt, then purged (RELAY_WEBHOOK_RETENTION_DAYS). */
  retentionDays: number;
  /** How often due deliveries are looked for; 0: never in the background (`sweep` still works). */
  pollMs?: number;
  /** Deliveries claimed per sweep at most, `concurrency` sent at once. */
  batch?: number;
  concurrency?: number;
}

/** Each attempt's outcome, for `/metrics`. */
export type DeliveryOutcome = 'delivered' | 'retried' | 'failed';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const PURGE_BATCH = 5_000;
/** Errors kept on a delivery are the receiver's status or the transport's code: short, and never a secret. */
const MAX_ERROR_CHARS = 200;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Sends queued deliveries (at least once): every `pollMs`, and at once when an event is queued
 * here, it claims due rows under a lease (another instance skips them), POSTs each signed body
 * with a timeout, `concurrency` at a time, and records the outcome — 2xx delivered, anything else
 * tried again on the back-off schedule until `maxAttempts`, then failed. A process that dies mid-
 * attempt leaves the lease to run out; the delivery is then sent again with the same event id.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private purgeTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  /** A sweep was asked for while one ran: run another right after. */
  private again = false;
  private closed = false;
  private readonly aborts = new AbortController();
  private readonly warn: ThrottledWarn;
  private readonly pollMs: number;

  constructor(
    private readonly deps: { store: WebhookStore; logger: Logger; clock: Clock; observe?: (outcome: DeliveryOutcome) => void },
    private readonly options: WebhookWorkerOptions,
  ) {
    this.warn = throttledWarn(deps.logger);
    // As often as the first retry falls due (5 s by default), never busier than every 20 ms: a new
    // event pokes the worker at once, so the poll only finds retries, expired leases and events
    // queued by another instance — one query per interval per instance, traffic or not.
    this.pollMs = options.pollMs ?? Math.max(20, Math.min(5_000, options.firstDelayMs));
  }

  start(): void {
    if (this.timer || this.closed || this.pollMs <= 0) return;
    this.timer = setInterval(() => this.poke(), this.pollMs);
    this.timer.unref();
    this.purgeTimer = setInterval(() => void this.purge().catch((error: unknown) => this.warn('purge', error, 'webhook deliveries not purged')), HOUR_MS);
    this.purgeTimer.unref();
  }

  /** Look for due deliveries now (an event was queued); joins a sweep under way. */
  poke(): void {
    if (this.closed) return;
    if (this.sweeping) {
      this.again = true;
      return;
    }
    void this.sweep().catch((error: unknown) => this.warn('sweep', error, 'webhook deliveries not sent this time; tried again at the next tick'));
  }

  /** Sends every due delivery once; answers how many. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce().finally(() => {
      this.sweeping = undefined;
      if (this.again && !this.closed) {
        this.again = false;
        this.poke();
      }
    });
    return this.sweeping;
  }

  /** Deliveries finished longer than the retention ago, and expired alert marks, deleted in batches. */
  async purge(now = this.deps.clock()): Promise<number> {
    const before = iso(now - this.options.retentionDays * DAY_MS);
    let purged = 0;
    for (;;) {
      const deleted = await this.deps.store.purgeBefore(before, PURGE_BATCH);
      purged += deleted;
      if (deleted < PURGE_BATCH) return purged;
    }
  }

  /** Stops the timers and aborts the attempts under way: their leases run out and another start sends them. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearInterval(this.purgeTimer);
    this.aborts.abort();
    await this.sweeping?.catch(() => undefined);
  }

  private async sweepOnce(): Promise<number> {
    const now = this.deps.clock();
    // The lease outlasts the attempt: the timeout, and as long again for the database.
    const due = await this.deps.store.claimDue(iso(now), iso(now + 2 * this.options.timeoutMs + 1_000), this.options.batch ?? 50);
    const webhooks = new Map<number, Promise<WebhookRecord | undefined>>();
    const webhookOf = (id: number) => {
      let found = webhooks.get(id);
      if (!found) webhooks.set(id, (found = this.deps.store.get(id)));
      return found;
    };
    await mapBounded(due, this.options.concurrency ?? 4, async (delivery) => {
      if (this.closed) return;
      try {
        await this.attempt(delivery, await webhookOf(delivery.webhookId));
      } catch (error) {
        this.warn('attempt', error, 'a webhook attempt could not be recorded; it is tried again once its lease ends');
      }
    });
    return due.length;
  }

  private async attempt(delivery: WebhookDeliveryRecord, webhook: WebhookRecord | undefined): Promise<void> {
    // Deleted meanwhile: its deliveries went with it.
    if (!webhook) return;
    const attempts = delivery.attempts + 1;
    if (!webhook.enabled && delivery.eventType !== 'test') {
      await this.record(delivery, { status: 'failed', attempts: delivery.attempts, lastStatus: null, lastError: 'webhook disabled', nextAttemptAt: null, deliveredAt: null });
      return;
    }
    if (webhook.secret === '') {
      this.deps.logger.error({ webhookId: webhook.id }, 'webhook secret does not open with this relay\'s secret key; delivery failed');
      await this.record(delivery, { status: 'failed', attempts, lastStatus: null, lastError: 'secret does not open', nextAttemptAt: null, deliveredAt: null });
      return;
    }
    const { status, error } = await this.post(webhook, delivery);
    if (this.closed && status === null) return; // aborted by shutdown: left to its lease
    const now = this.deps.clock();
    if (status !== null && status >= 200 && status < 300) {
      await this.record(delivery, { status: 'delivered', attempts, lastStatus: status, lastError: null, nextAttemptAt: null, deliveredAt: iso(now) });
      return;
    }
    const next = nextAttemptAt(attempts, now, this.options);
    const lastError = (error ?? `receiver answered ${status}`).slice(0, MAX_ERROR_CHARS);
    await this.record(delivery, {
      status: next === null ? 'failed' : 'pending',
      attempts,
      lastStatus: status,
      lastError,
      nextAttemptAt: next === null ? null : iso(next),
      deliveredAt: null,
    });
  }

  private async record(delivery: WebhookDeliveryRecord, attempt: DeliveryAttempt): Promise<void> {
    await this.deps.store.recordAttempt(delivery.id, attempt);
    this.deps.observe?.(attempt.status === 'delivered' ? 'delivered' : attempt.status === 'failed' ? 'failed' : 'retried');
    if (attempt.status === 'failed') {
      this.deps.logger.warn({ webhookId: delivery.webhookId, eventId: delivery.eventId, attempts: attempt.attempts, lastError: attempt.lastError }, 'webhook delivery failed for good');
    }
  }

  /** One POST: the receiver's status, or null and why it could not be reached. */
  private async post(webhook: WebhookRecord, delivery: WebhookDeliveryRecord): Promise<{ status: number | null; error?: string }> {
    const body = JSON.stringify(delivery.event);
    const signal = AbortSignal.any([this.aborts.signal, AbortSignal.timeout(this.options.timeoutMs)]);
    try {
      const response = await fetch(webhook.url, {
        method: 'POST',
        // A redirect is an answer, not a delivery: following it would send the signed body where the operator did not say.
        redirect: 'manual',
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': `chat-relay/${RELAY_VERSION} webhooks`,
          [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(webhook.secret, Math.floor(this.deps.clock() / 1000), body),
          [WEBHOOK_EVENT_ID_HEADER]: delivery.eventId,
          [WEBHOOK_EVENT_TYPE_HEADER]: delivery.eventType,
        },
        body,
      });
      await response.body?.cancel().catch(() => undefined);
      return { status: response.status };
    } catch (error) {
      return { status: null, error: transportError(error, this.options.timeoutMs) };
    }
  }
}

/** Why a POST got no answer, without the URL (it may carry credentials): a timeout, or the socket's code. */
function transportError(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  if (name === 'AbortError') return 'aborted at shutdown';
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? `could not connect: ${cause.code}` : 'could not connect';
}
