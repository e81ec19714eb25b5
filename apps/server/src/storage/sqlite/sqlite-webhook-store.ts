import type { WebhookEvent } from '@chat-relay/contract';
import type Database from 'better-sqlite3';
import type { Page } from '../common-types';
import { jsonColumn, SQLITE_CODEC } from '../rows/codec';
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

const webhookOf = (row: WebhookRow): WebhookRecord => webhookRecordOf(row, SQLITE_CODEC);
const deliveryOf = (row: DeliveryRow): WebhookDeliveryRecord => deliveryRecordOf(row, SQLITE_CODEC);

/**
 * Webhooks in SQLite. One process writes the file at a time, and every claim is one UPDATE …
 * RETURNING, so two claims never take the same row.
 */
export class SqliteWebhookStore implements StoredWebhookStore {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly enqueueEvent: (event: WebhookEvent, now: string, options: EnqueueOptions) => WebhookDeliveryRecord[] | undefined;

  constructor(private readonly db: Database.Database) {
    this.enqueueEvent = db.transaction((event: WebhookEvent, now: string, options: EnqueueOptions) => {
      if (options.mark) {
        const inserted = this.prepared('INSERT INTO alert_marks (key, created_at, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING').run(
          options.mark.key,
          now,
          options.mark.expiresAt,
        );
        if (inserted.changes === 0) return undefined;
      }
      const targets =
        options.webhookId === undefined
          ? (this.prepared('SELECT * FROM webhooks ORDER BY id').all() as WebhookRow[]).map(webhookOf).filter((webhook) => takesEvent(webhook, event.type))
          : [this.getSync(options.webhookId)].filter((webhook): webhook is WebhookRecord => webhook !== undefined);
      const insert = this.prepared(
        `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, event, status, attempts, created_at, next_attempt_at)
         VALUES (?, ?, ?, ?, 'pending', 0, ?, ?) ON CONFLICT (event_id, webhook_id) DO NOTHING RETURNING *`,
      );
      const body = JSON.stringify(event);
      return targets.flatMap((webhook) => {
        const row = insert.get(webhook.id, event.id, event.type, body, now, now) as DeliveryRow | undefined;
        return row ? [deliveryOf(row)] : [];
      });
    });
  }

  private prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private getSync(id: number): WebhookRecord | undefined {
    const row = this.prepared('SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow | undefined;
    return row ? webhookOf(row) : undefined;
  }

  async create(input: NewWebhook, now: string): Promise<WebhookRecord> {
    const row = this.prepared(
      'INSERT INTO webhooks (url, events, enabled, secret, secret_hint, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *',
    ).get(input.url, jsonColumn(input.events), SQLITE_CODEC.flag(input.enabled), input.secret, input.secretHint, now, now) as WebhookRow;
    return webhookOf(row);
  }

  async get(id: number): Promise<WebhookRecord | undefined> {
    return this.getSync(id);
  }

  async list(): Promise<WebhookRecord[]> {
    return (this.prepared('SELECT * FROM webhooks ORDER BY id').all() as WebhookRow[]).map(webhookOf);
  }

  async update(id: number, patch: WebhookPatch, now: string): Promise<WebhookRecord | undefined> {
    const assignments: Array<[string, unknown]> = [['updated_at', now]];
    if (patch.url !== undefined) assignments.push(['url', patch.url]);
    if (patch.events !== undefined) assignments.push(['events', jsonColumn(patch.events)]);
    if (patch.enabled !== undefined) assignments.push(['enabled', SQLITE_CODEC.flag(patch.enabled)]);
    const row = this.prepared(`UPDATE webhooks SET ${assignments.map(([column]) => `${column} = ?`).join(', ')} WHERE id = ? RETURNING *`).get(
      ...assignments.map(([, value]) => value),
      id,
    ) as WebhookRow | undefined;
    return row ? webhookOf(row) : undefined;
  }

  async delete(id: number): Promise<boolean> {
    return this.prepared('DELETE FROM webhooks WHERE id = ?').run(id).changes > 0;
  }

  async enqueue(event: WebhookEvent, now: string, options: EnqueueOptions = {}): Promise<WebhookDeliveryRecord[] | undefined> {
    return this.enqueueEvent(event, now, options);
  }

  async claimDue(now: string, leaseUntil: string, limit: number): Promise<WebhookDeliveryRecord[]> {
    const rows = this.prepared(
      `UPDATE webhook_deliveries SET lease_until = @leaseUntil WHERE id IN
         (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= @now AND (lease_until IS NULL OR lease_until < @now)
          ORDER BY next_attempt_at, id LIMIT @limit)
       RETURNING *`,
    ).all({ now, leaseUntil, limit }) as DeliveryRow[];
    return rows.map(deliveryOf).sort(byDueTime);
  }

  async recordAttempt(id: number, attempt: DeliveryAttempt): Promise<WebhookDeliveryRecord | undefined> {
    const row = this.prepared(
      `UPDATE webhook_deliveries SET status = ?, attempts = ?, last_status = ?, last_error = ?, next_attempt_at = ?, delivered_at = ?, lease_until = NULL
       WHERE id = ? RETURNING *`,
    ).get(attempt.status, attempt.attempts, attempt.lastStatus, attempt.lastError, attempt.nextAttemptAt, attempt.deliveredAt, id) as DeliveryRow | undefined;
    return row ? deliveryOf(row) : undefined;
  }

  async getDelivery(id: number): Promise<WebhookDeliveryRecord | undefined> {
    const row = this.prepared('SELECT * FROM webhook_deliveries WHERE id = ?').get(id) as DeliveryRow | undefined;
    return row ? deliveryOf(row) : undefined;
  }

  async listDeliveries(request: DeliveryListRequest): Promise<Page<WebhookDeliveryRecord>> {
    const filters: string[] = [];
    const params: Record<string, unknown> = {};
    if (request.webhookId !== undefined) {
      filters.push('webhook_id = @webhookId');
      params['webhookId'] = request.webhookId;
    }
    if (request.status !== undefined) {
      filters.push('status = @status');
      params['status'] = request.status;
    }
    const where = filters.length > 0 ? `WHERE ${filters.join(' AND ')}` : '';
    const total = (this.prepared(`SELECT COUNT(*) AS n FROM webhook_deliveries ${where}`).get(params) as { n: number }).n;
    const rows = this.prepared(`SELECT * FROM webhook_deliveries ${where} ORDER BY id DESC LIMIT @limit OFFSET @offset`).all({
      ...params,
      limit: request.perPage,
      offset: (request.page - 1) * request.perPage,
    }) as DeliveryRow[];
    return { rows: rows.map(deliveryOf), total };
  }

  async purgeBefore(before: string, limit: number): Promise<number> {
    this.prepared('DELETE FROM alert_marks WHERE expires_at < ?').run(before);
    return this.prepared(
      `DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE created_at < ? AND status <> 'pending' ORDER BY id LIMIT ?)`,
    ).run(before, limit).changes;
  }

  async rewriteSecret(id: number, expected: string, next: string): Promise<boolean> {
    return this.prepared('UPDATE webhooks SET secret = ? WHERE id = ? AND secret = ?').run(next, id, expected).changes > 0;
  }
}
