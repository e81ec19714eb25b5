import type { Migration } from './migration';

/**
 * The migration of issue 32 (periodic limits), apart to keep files short: still append only, in
 * order. Windows are rows keyed by owner, period and first local day, so a new window starts
 * empty by its key and no job ever resets one. A deleted token or account leaves its windows
 * behind (ids are never reused: AUTOINCREMENT), harmless and small — one row per owner and window.
 */
export const LIMIT_MIGRATIONS: readonly Migration[] = [
  {
    version: 17,
    name: 'periodic limits on tokens and accounts, the windows they count in',
    sql: `
      -- JSON [{"period": "day", "metric": "cost", "limit": 1000000}]; a time zone (NULL: the relay's
      -- default); alert thresholds in percent, JSON (NULL: the relay's default).
      ALTER TABLE tokens ADD COLUMN periodic_limits TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE tokens ADD COLUMN time_zone TEXT;
      ALTER TABLE tokens ADD COLUMN alert_thresholds TEXT;
      ALTER TABLE accounts ADD COLUMN periodic_limits TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE accounts ADD COLUMN time_zone TEXT;
      ALTER TABLE accounts ADD COLUMN alert_thresholds TEXT;
      -- What each window has counted: micro-USD, requests, tokens (prompt + completion).
      CREATE TABLE quota_windows (
        owner TEXT NOT NULL CHECK (owner IN ('token', 'account')),
        owner_id INTEGER NOT NULL,
        period TEXT NOT NULL,
        start TEXT NOT NULL,
        cost INTEGER NOT NULL DEFAULT 0,
        requests INTEGER NOT NULL DEFAULT 0,
        tokens INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (owner, owner_id, period, start)
      ) WITHOUT ROWID;
      -- The windows a reservation counted in (JSON [{"owner", "owner_id", "period", "start"}]; NULL:
      -- none) and the tokens it reserved in them: what its settlement or give-back corrects.
      ALTER TABLE quota_reservations ADD COLUMN windows TEXT;
      ALTER TABLE quota_reservations ADD COLUMN tokens INTEGER NOT NULL DEFAULT 0;
    `,
  },
];
