import type { Migration } from './migration';

/**
 * The migrations of issue 17 (prices of the new units; long-running tasks and the reservations
 * they hold), apart from the older ones only to keep files short: still append only, in order.
 */
export const TASK_MIGRATIONS: readonly Migration[] = [
  {
    version: 10,
    name: 'prices per second of video, per song, per web search query',
    sql: `
      -- Micro-USD per second of video (and by size, JSON), per song, per web search query; NULL: not priced.
      ALTER TABLE prices ADD COLUMN video_second INTEGER;
      ALTER TABLE prices ADD COLUMN video_second_variants TEXT;
      ALTER TABLE prices ADD COLUMN song INTEGER;
      ALTER TABLE prices ADD COLUMN search_query INTEGER;
    `,
  },
  {
    version: 11,
    name: 'long-running tasks, and the quota reservations they hold',
    sql: `
      -- Videos and songs (issue 17): submitted, polled until they end, charged once by settle.
      -- Deleting the account deletes its tasks (and, below, the reservations they hold).
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('video', 'music')),
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        token_id INTEGER,
        request_id TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        key_digest TEXT NOT NULL,
        upstream_id TEXT NOT NULL,
        model TEXT NOT NULL,
        priced_model TEXT NOT NULL,
        upstream_model TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'in_progress', 'completed', 'failed', 'cancelled')),
        progress REAL NOT NULL DEFAULT 0,
        error TEXT,
        params TEXT NOT NULL DEFAULT '{}',
        result TEXT,
        quota_reserved INTEGER NOT NULL,
        units REAL NOT NULL,
        unit_variant TEXT,
        cost INTEGER NOT NULL DEFAULT 0,
        client_ip TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        started_at TEXT,
        completed_at TEXT,
        settled_at TEXT,
        next_poll_at TEXT NOT NULL,
        polls INTEGER NOT NULL DEFAULT 0,
        lease_until TEXT,
        deleted_at TEXT
      );
      -- A caller's listing of one kind, by creation then id (keyset pages), without the deleted.
      CREATE INDEX tasks_listing ON tasks(account_id, kind, created_at, id) WHERE deleted_at IS NULL;
      -- What the pollers claim: the unsettled, by when they are due.
      CREATE INDEX tasks_due ON tasks(next_poll_at, id) WHERE settled_at IS NULL;
      -- The task whose reservation this is: kept across restarts, never given back as orphaned,
      -- settled only with the task. NULL: an ordinary request's.
      ALTER TABLE quota_reservations ADD COLUMN task_id TEXT REFERENCES tasks(id) ON DELETE CASCADE;
      CREATE INDEX quota_reservations_task ON quota_reservations(task_id) WHERE task_id IS NOT NULL;
    `,
  },
];
