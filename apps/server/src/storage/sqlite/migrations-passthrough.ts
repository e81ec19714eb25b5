import type { Migration } from './migration';

/**
 * The migration of issue 26 (what passes through to a channel, its prices, and which account
 * created an object at a provider), apart to keep files short: still append only, in order.
 */
export const PASSTHROUGH_MIGRATIONS: readonly Migration[] = [
  {
    version: 13,
    name: 'what passes through to a channel, its prices, and the upstream objects each account created',
    sql: `
      -- What passes through beyond plain tokens (JSON; '{}': nothing, the default).
      ALTER TABLE channels ADD COLUMN passthrough TEXT NOT NULL DEFAULT '{}';
      -- Micro-USD per hosted tool call by kind (JSON), a multiplier per service tier (JSON), micro-USD
      -- per million audio output tokens; NULL: not priced.
      ALTER TABLE prices ADD COLUMN tool_calls TEXT;
      ALTER TABLE prices ADD COLUMN service_tiers TEXT;
      ALTER TABLE prices ADD COLUMN audio_output INTEGER;
      -- Objects an answer created at a provider (items of stored responses, containers), by the account
      -- whose request created them: a later passthrough request may name only its own. The first owner
      -- keeps an id; rows go when they expire (with the stored responses) or with the account.
      CREATE TABLE upstream_objects (
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        channel_id INTEGER,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        PRIMARY KEY (kind, id)
      ) WITHOUT ROWID;
      CREATE INDEX upstream_objects_expires ON upstream_objects(expires_at);
      CREATE INDEX upstream_objects_account ON upstream_objects(account_id);
    `,
  },
];
