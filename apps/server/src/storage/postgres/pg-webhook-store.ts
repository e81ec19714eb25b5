import type { WebhookEvent } from '@chat-relay/contract';
import type pg from 'pg';
import type { Page } from '../common-types';
import { jsonColumn, PG_CODEC } from '../rows/codec';
import { byDueTime, deliveryRecordOf, takesEvent, webhookRecordOf, type DeliveryRow, type WebhookRow } from '../rows/webhook-row';
import type {
  DeliveryAttempt,
  DeliveryListRequest,
  EnqueueOptions,
  NewWebhook,
  WebhookDeliveryRecord,
  WebhookPatch,
  WebhookRecord,
  StoredWebhookStore,
} from '../webhook-types';
import { inTransaction } from './pg-pool';
import { idParam, pageOf, Params, type Queryable } from './pg-rows';

const webhookOf = (row: WebhookRow): WebhookRecord => webhookRecordOf(row, PG_CODEC);
const deliveryOf = (row: DeliveryRow): WebhookDeliveryRecord => deliveryRecordOf(row, PG_CODEC);

/**
 * Up to `$3` due deliveries leased until `$2`, oldest due first. Rows another instance is
 * claiming right now are skipped rather than waited for, and a row it claimed since this
 * statement began is checked again once locked: two instances never send the same attempt.
 */
const CLAIM_DUE = `
  WITH due AS MATERIALIZED (
    SELECT id FROM webhook_deliveries
    WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
    ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED
  )
  UPDATE webhook_deliveries SET lease_until = $2 FROM due WHERE webhook_deliveries.id = due.id RETURNING webhook_deliveries.*`;

const INSERT_DELIVERY = `
  INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, event, status, attempts, created_at, next_attempt_at)
  VALUES ($1, $2, $3, $4::json, 'pending', 0, $5, $5) ON CONFLICT (event_id, webhook_id) DO NOTHING RETURNING *`;

/** Webhooks in PostgreSQL, behaving as SqliteWebhookStore does, for instances sharing the database. */
export class PgWebhookStore implements StoredWebhookStore {
  constructor(private readonly pool: pg.Pool) {}

  private async getOn(db: Queryable, id: number): Promise<WebhookRecord | undefined> {
    const { rows } = await db.query<WebhookRow>('SELECT * FROM webhooks WHERE id = $1::bigint', [idParam(id)]);
    return rows[0] ? webhookOf(rows[0]) : undefined;
  }

  async create(input: NewWebhook, now: string): Promise<WebhookRecord> {
    const { rows } = await this.pool.query<WebhookRow>(
      'INSERT INTO webhooks (url, events, enabled, secret, secret_hint, created_at, updated_at) VALUES ($1, $2::json, $3, $4, $5, $6, $6) RETURNING *',
      [input.url, jsonColumn(input.events), input.enabled, input.secret, input.secretHint, now],
    );
    return webhookOf(rows[0] as WebhookRow);
  }

  get(id: number): Promise<WebhookRecord | undefined> {
    return this.getOn(this.pool, id);
  }

  async list(): Promise<WebhookRecord[]> {
    const { rows } = await this.pool.query<WebhookRow>('SELECT * FROM webhooks ORDER BY id');
    return rows.map(webhookOf);
  }

  async update(id: number, patch: WebhookPatch, now: string): Promise<WebhookRecord | undefined> {
    const params = new Params();
    const assignments = [`updated_at = ${params.add(now)}`];
    if (patch.url !== undefined) assignments.push(`url = ${params.add(patch.url)}`);
    if (patch.events !== undefined) assignments.push(`events = ${params.add(jsonColumn(patch.events))}::json`);
    if (patch.enabled !== undefined) assignments.push(`enabled = ${params.add(patch.enabled)}`);
    const { rows } = await this.pool.query<WebhookRow>(
      `UPDATE webhooks SET ${assignments.join(', ')} WHERE id = ${params.add(idParam(id))}::bigint RETURNING *`,
      params.values,
    );
    return rows[0] ? webhookOf(rows[0]) : undefined;
  }

  async delete(id: number): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM webhooks WHERE id = $1::bigint', [idParam(id)]);
    return (rowCount ?? 0) > 0;
  }

  async enqueue(event: WebhookEvent, now: string, options: EnqueueOptions = {}): Promise<WebhookDeliveryRecord[] | undefined> {
    return inTransaction(this.pool, async (client) => {
      if (options.mark) {
        // Of instances inserting the same mark at once, one inserts it; the others wait for it, then find it.
        const inserted = await client.query('INSERT INTO alert_marks (key, created_at, expires_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [
          options.mark.key,
          now,
          options.mark.expiresAt,
        ]);
        if ((inserted.rowCount ?? 0) === 0) return undefined;
      }
      const targets =
        options.webhookId === undefined
          ? (await client.query<WebhookRow>('SELECT * FROM webhooks ORDER BY id')).rows.map(webhookOf).filter((webhook) => takesEvent(webhook, event.type))
          : [await this.getOn(client, options.webhookId)].filter((webhook): webhook is WebhookRecord => webhook !== undefined);
      const body = JSON.stringify(event);
      const made: WebhookDeliveryRecord[] = [];
      for (const webhook of targets) {
        const { rows } = await client.query<DeliveryRow>(INSERT_DELIVERY, [webhook.id, event.id, event.type, body, now]);
        if (rows[0]) made.push(deliveryOf(rows[0]));
      }
      return made;
    });
  }

  async claimDue(now: string, leaseUntil: string, limit: number): Promise<WebhookDeliveryRecord[]> {
    const { rows } = await this.pool.query<DeliveryRow>(CLAIM_DUE, [now, leaseUntil, limit]);
    return rows.map(deliveryOf).sort(byDueTime);
  }

  async recordAttempt(id: number, attempt: DeliveryAttempt): Promise<WebhookDeliveryRecord | undefined> {
    const { rows } = await this.pool.query<DeliveryRow>(
      `UPDATE webhook_deliveries SET status = $1, attempts = $2, last_status = $3, last_error = $4, next_attempt_at = $5, delivered_at = $6, lease_until = NULL
       WHERE id = $7::bigint RETURNING *`,
      [attempt.status, attempt.attempts, attempt.lastStatus, attempt.lastError, attempt.nextAttemptAt, attempt.deliveredAt, idParam(id)],
    );
    return rows[0] ? deliveryOf(rows[0]) : undefined;
  }

  async getDelivery(id: number): Promise<WebhookDeliveryRecord | undefined> {
    const { rows } = await this.pool.query<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = $1::bigint', [idParam(id)]);
    return rows[0] ? deliveryOf(rows[0]) : undefined;
  }

  listDeliveries(request: DeliveryListRequest): Promise<Page<WebhookDeliveryRecord>> {
    const params = new Params();
    const filters = ['TRUE'];
    if (request.webhookId !== undefined) filters.push(`webhook_id = ${params.add(idParam(request.webhookId))}::bigint`);
    if (request.status !== undefined) filters.push(`status = ${params.add(request.status)}`);
    return pageOf<DeliveryRow, WebhookDeliveryRecord>(
      this.pool,
      { columns: '*', table: 'webhook_deliveries', where: filters.join(' AND '), orderBy: 'id DESC', params },
      request,
      deliveryOf,
    );
  }

  async purgeBefore(before: string, limit: number): Promise<number> {
    await this.pool.query('DELETE FROM alert_marks WHERE expires_at < $1', [before]);
    const { rowCount } = await this.pool.query(
      `DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE created_at < $1 AND status <> 'pending' ORDER BY id LIMIT $2)`,
      [before, limit],
    );
    return rowCount ?? 0;
  }

  async rewriteSecret(id: number, expected: string, next: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE webhooks SET secret = $1 WHERE id = $2::bigint AND secret = $3', [next, idParam(id), expected]);
    return (rowCount ?? 0) > 0;
  }
}
