/**
 * PostgreSQL version 6, the change SQLite makes at its version 13: what passes through to a
 * channel, its prices, and the upstream objects each account created (issue 26).
 */
export const SCHEMA_V6 = `
  -- What passes through beyond plain tokens ('{}': nothing, the default).
  ALTER TABLE channels ADD COLUMN passthrough json NOT NULL DEFAULT '{}';
  -- Micro-USD per hosted tool call by kind, a multiplier per service tier (key order as written, so
  -- json), micro-USD per million audio output tokens; NULL: not priced.
  ALTER TABLE prices ADD COLUMN tool_calls json;
  ALTER TABLE prices ADD COLUMN service_tiers json;
  ALTER TABLE prices ADD COLUMN audio_output bigint;
  -- Objects an answer created at a provider (items of stored responses, containers), by the account
  -- whose request created them: a later passthrough request may name only its own.
  CREATE TABLE upstream_objects (
    kind text NOT NULL,
    id text NOT NULL,
    account_id integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    channel_id integer,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (kind, id)
  );
  CREATE INDEX upstream_objects_expires ON upstream_objects(expires_at);
  CREATE INDEX upstream_objects_account ON upstream_objects(account_id);
`;
