import type { Migration } from './migration';

/**
 * The migration of issue 32's alerts: webhooks, their deliveries and the marks that make a
 * threshold crossing alert once. Version 19 (17 and 18 are the periodic limits' and the fallback
 * rules'): append only, in order.
 */
export const WEBHOOK_MIGRATIONS: readonly Migration[] = [
  {
    version: 19,
    name: 'webhooks, their deliveries, and alert marks',
    sql: `
      -- events: a JSON array of event types, NULL = all. secret: sealed with the relay's secret key.
      CREATE TABLE webhooks (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        url TEXT NOT NULL,
        events TEXT,
        enabled INTEGER NOT NULL DEFAULT 1,
        secret TEXT NOT NULL,
        secret_hint TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- One event's delivery to one webhook: the same body (event) on every attempt.
      CREATE TABLE webhook_deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        webhook_id INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id TEXT NOT NULL,
        event_type TEXT NOT NULL,
        event TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_status INTEGER,
        last_error TEXT,
        created_at TEXT NOT NULL,
        next_attempt_at TEXT,
        delivered_at TEXT,
        lease_until TEXT,
        UNIQUE (event_id, webhook_id)
      );
      -- What the worker claims: the pending, by when they are due.
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at, id) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, id);
      CREATE INDEX webhook_deliveries_created ON webhook_deliveries(created_at);
      -- A threshold crossing, by owner, window, metric and threshold: inserted once, across instances.
      CREATE TABLE alert_marks (
        key TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        expires_at TEXT
      );
      CREATE INDEX alert_marks_expiry ON alert_marks(expires_at) WHERE expires_at IS NOT NULL;
    `,
  },
];
