/**
 * PostgreSQL version 4, the change SQLite makes at its version 11: long-running tasks (issue 17)
 * and the quota reservations they hold. What a caller or an upstream wrote (params, result,
 * error) is `json`, kept as written.
 */
export const SCHEMA_V4 = `
  -- Deleting the account deletes its tasks (and, below, the reservations they hold). Ids compare
  -- by bytes ("C"), as SQLite compares them: listings page in the same order on both backends.
  CREATE TABLE tasks (
    id text COLLATE "C" PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('video', 'music')),
    account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    token_id integer,
    request_id text NOT NULL,
    channel_id integer NOT NULL,
    key_digest text NOT NULL,
    upstream_id text NOT NULL,
    model text NOT NULL,
    priced_model text NOT NULL,
    upstream_model text NOT NULL,
    status text NOT NULL CHECK (status IN ('queued', 'in_progress', 'completed', 'failed', 'cancelled')),
    progress double precision NOT NULL DEFAULT 0,
    error json,
    params json NOT NULL DEFAULT '{}',
    result json,
    quota_reserved bigint NOT NULL,
    units double precision NOT NULL,
    unit_variant text,
    cost bigint NOT NULL DEFAULT 0,
    client_ip text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    started_at timestamptz,
    completed_at timestamptz,
    settled_at timestamptz,
    next_poll_at timestamptz NOT NULL,
    polls integer NOT NULL DEFAULT 0,
    lease_until timestamptz,
    deleted_at timestamptz
  );
  -- A caller's listing of one kind, by creation then id (keyset pages), without the deleted.
  CREATE INDEX tasks_listing ON tasks(account_id, kind, created_at, id) WHERE deleted_at IS NULL;
  -- What the pollers claim: the unsettled, by when they are due.
  CREATE INDEX tasks_due ON tasks(next_poll_at, id) WHERE settled_at IS NULL;

  -- The task whose reservation this is: kept across restarts, never given back as orphaned,
  -- settled only with the task. NULL: an ordinary request's.
  ALTER TABLE quota_reservations ADD COLUMN task_id text COLLATE "C" REFERENCES tasks(id) ON DELETE CASCADE;
  CREATE INDEX quota_reservations_task ON quota_reservations(task_id) WHERE task_id IS NOT NULL;
`;
