import type Database from 'better-sqlite3';
import { RESPONSE_BOUND_MIGRATIONS } from './migrations-response-bounds';
import { PASSTHROUGH_MIGRATIONS } from './migrations-passthrough';
import { CLOUD_MIGRATIONS } from './migrations-cloud';
import { LIMIT_MIGRATIONS } from './migrations-limits';
import { WEBHOOK_MIGRATIONS } from './migrations-webhooks';
import { USAGE_INDEX_MIGRATIONS } from './migrations-usage-indexes';
import { MONEY_MIGRATIONS } from './migrations-money';
import { TASK_MIGRATIONS } from './migrations-tasks';
import { CATALOGUE_MIGRATIONS } from './migrations-catalogue';
import { FALLBACK_MIGRATIONS } from './migrations-fallbacks';
import type { Migration } from './migration';

export type { Migration } from './migration';

/** Append only: a shipped migration never changes; a new version follows it. */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, tokens, channels, usage log',
    sql: `
      CREATE TABLE accounts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('admin', 'user')),
        access_key_digest TEXT UNIQUE,
        status TEXT NOT NULL DEFAULT 'active',
        quota_limit INTEGER,
        quota_used INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
      );
      CREATE TABLE tokens (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        key_digest TEXT NOT NULL UNIQUE,
        key_hint TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'active',
        expires_at TEXT,
        quota_limit INTEGER,
        quota_used INTEGER NOT NULL DEFAULT 0,
        models TEXT,
        allowed_ips TEXT,
        rate_limit TEXT,
        created_at TEXT NOT NULL,
        last_used_at TEXT
      );
      CREATE INDEX tokens_account ON tokens(account_id);
      CREATE TABLE channels (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        base_url TEXT NOT NULL,
        keys TEXT NOT NULL,
        models TEXT NOT NULL,
        model_mapping TEXT NOT NULL DEFAULT '{}',
        priority INTEGER NOT NULL DEFAULT 0,
        weight INTEGER NOT NULL DEFAULT 1,
        enabled INTEGER NOT NULL DEFAULT 1,
        timeouts TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE usage_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at TEXT NOT NULL,
        request_id TEXT NOT NULL,
        token_id INTEGER,
        account_id INTEGER,
        requested_model TEXT,
        upstream_model TEXT,
        channel_id INTEGER,
        assistant_id TEXT,
        stream INTEGER NOT NULL,
        status INTEGER NOT NULL,
        error_code TEXT,
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        usage_estimated INTEGER NOT NULL,
        cost INTEGER NOT NULL,
        latency_ms INTEGER NOT NULL,
        ttfb_ms INTEGER,
        client_ip TEXT,
        attempts INTEGER NOT NULL
      );
      CREATE INDEX usage_log_created ON usage_log(created_at);
      CREATE INDEX usage_log_token ON usage_log(token_id, created_at);
    `,
  },
  {
    version: 2,
    name: 'custom assistants',
    sql: `
      CREATE TABLE assistants (
        id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        instructions TEXT NOT NULL DEFAULT '',
        tools TEXT NOT NULL DEFAULT '[]',
        temperature REAL,
        top_p REAL,
        max_tokens INTEGER,
        response_format TEXT,
        models TEXT,
        visibility TEXT NOT NULL CHECK (visibility IN ('private', 'public')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX assistants_account ON assistants(account_id);
      CREATE INDEX usage_log_assistant ON usage_log(assistant_id, created_at);
    `,
  },
  {
    version: 3,
    name: 'account keys, prices, usage queries',
    sql: `
      ALTER TABLE accounts ADD COLUMN key_hint TEXT;
      CREATE TABLE prices (
        position INTEGER NOT NULL,
        model TEXT NOT NULL UNIQUE,
        input INTEGER NOT NULL,
        output INTEGER NOT NULL
      );
      -- Micro-USD per million tokens: list prices of a few well-known models, editable by the admin.
      INSERT INTO prices (position, model, input, output) VALUES
        (1, 'gpt-4o-mini*', 150000, 600000),
        (2, 'gpt-4o*', 2500000, 10000000),
        (3, 'gpt-4.1-mini*', 400000, 1600000),
        (4, 'gpt-4.1*', 2000000, 8000000),
        (5, 'o3-mini*', 1100000, 4400000),
        (6, 'o3*', 2000000, 8000000),
        (7, 'claude-haiku-4-5*', 1000000, 5000000),
        (8, 'claude-sonnet-4*', 3000000, 15000000),
        (9, 'claude-opus-4*', 15000000, 75000000),
        (10, 'gemini-2.5-flash*', 300000, 2500000),
        (11, 'gemini-2.5-pro*', 1250000, 10000000);
      CREATE INDEX usage_log_account ON usage_log(account_id, created_at);
      CREATE INDEX usage_log_request ON usage_log(request_id);
    `,
  },
  {
    version: 4,
    name: 'channel key states, assistant ids per owner',
    sql: `
      -- One {status, reason, changedAt} per key, same order as keys (issue 10 defect 13).
      ALTER TABLE channels ADD COLUMN key_states TEXT NOT NULL DEFAULT '[]';
      -- A private assistant id is the owner's alone: two accounts may each hold one (SPEC §5).
      CREATE TABLE assistants_by_owner (
        id TEXT NOT NULL,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        instructions TEXT NOT NULL DEFAULT '',
        tools TEXT NOT NULL DEFAULT '[]',
        temperature REAL,
        top_p REAL,
        max_tokens INTEGER,
        response_format TEXT,
        models TEXT,
        visibility TEXT NOT NULL CHECK (visibility IN ('private', 'public')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (account_id, id)
      );
      INSERT INTO assistants_by_owner SELECT id, account_id, name, description, instructions, tools, temperature, top_p,
        max_tokens, response_format, models, visibility, created_at, updated_at FROM assistants;
      DROP TABLE assistants;
      ALTER TABLE assistants_by_owner RENAME TO assistants;
      CREATE INDEX assistants_id ON assistants(id);
      CREATE UNIQUE INDEX assistants_public_id ON assistants(id) WHERE visibility = 'public';
    `,
  },
  {
    version: 5,
    name: 'quota reservations',
    sql: `
      -- Quota taken before an upstream call and not yet settled by its usage row: written with
      -- the reservation, deleted with the row, so a crash leaves what to give back on start.
      CREATE TABLE quota_reservations (
        id INTEGER PRIMARY KEY,
        request_id TEXT NOT NULL,
        token_id INTEGER NOT NULL,
        account_id INTEGER NOT NULL,
        amount INTEGER NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX quota_reservations_request ON quota_reservations(request_id);
    `,
  },
  {
    version: 6,
    name: 'prompt cache prices and token counts',
    sql: `
      -- Micro-USD per million prompt tokens read from / written to the provider's cache; NULL = input.
      ALTER TABLE prices ADD COLUMN cache_read INTEGER;
      ALTER TABLE prices ADD COLUMN cache_write INTEGER;
      -- Of prompt_tokens, those read from / written to the cache: rows written before count none.
      ALTER TABLE usage_log ADD COLUMN cache_read_tokens INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE usage_log ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;
      -- The list cache prices of the seeded models, where the admin left the seeded row as it was:
      -- a read at 0.1 × input (Anthropic, Gemini 2.5), 0.25 or 0.5 × (OpenAI); an Anthropic
      -- 5-minute write at 1.25 × input (OpenAI and Gemini bill no write).
      UPDATE prices SET cache_read = 75000 WHERE model = 'gpt-4o-mini*' AND input = 150000 AND output = 600000;
      UPDATE prices SET cache_read = 1250000 WHERE model = 'gpt-4o*' AND input = 2500000 AND output = 10000000;
      UPDATE prices SET cache_read = 100000 WHERE model = 'gpt-4.1-mini*' AND input = 400000 AND output = 1600000;
      UPDATE prices SET cache_read = 500000 WHERE model = 'gpt-4.1*' AND input = 2000000 AND output = 8000000;
      UPDATE prices SET cache_read = 550000 WHERE model = 'o3-mini*' AND input = 1100000 AND output = 4400000;
      UPDATE prices SET cache_read = 500000 WHERE model = 'o3*' AND input = 2000000 AND output = 8000000;
      UPDATE prices SET cache_read = 100000, cache_write = 1250000 WHERE model = 'claude-haiku-4-5*' AND input = 1000000 AND output = 5000000;
      UPDATE prices SET cache_read = 300000, cache_write = 3750000 WHERE model = 'claude-sonnet-4*' AND input = 3000000 AND output = 15000000;
      UPDATE prices SET cache_read = 1500000, cache_write = 18750000 WHERE model = 'claude-opus-4*' AND input = 15000000 AND output = 75000000;
      UPDATE prices SET cache_read = 30000 WHERE model = 'gemini-2.5-flash*' AND input = 300000 AND output = 2500000;
      UPDATE prices SET cache_read = 125000 WHERE model = 'gemini-2.5-pro*' AND input = 1250000 AND output = 10000000;
    `,
  },
  {
    version: 7,
    name: 'stored responses, channels speaking the Responses API',
    sql: `
      -- Responses created through POST /v1/responses (issue 13): bridged ones whole, native ones only
      -- as where they live upstream, so previous_response_id and retrieval find them until expires_at.
      CREATE TABLE stored_responses (
        id TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        token_id INTEGER,
        origin TEXT NOT NULL CHECK (origin IN ('native', 'bridged')),
        channel_id INTEGER,
        key_digest TEXT,
        model TEXT NOT NULL,
        previous_response_id TEXT,
        status TEXT NOT NULL,
        response TEXT,
        input_items TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE INDEX stored_responses_expires ON stored_responses(expires_at);
      -- Deleting an account cascades here: without an index each deletion reads the whole table.
      CREATE INDEX stored_responses_account ON stored_responses(account_id);
      -- Existing channels try their own /responses first and fall back to bridging on 404/405.
      ALTER TABLE channels ADD COLUMN responses_api TEXT NOT NULL DEFAULT 'auto'
        CHECK (responses_api IN ('auto', 'native', 'bridged'));
    `,
  },
  {
    version: 8,
    name: 'endpoints beside chat: what channels serve, units of cost, the endpoint of each log row',
    sql: `
      -- NULL: the channel type's default endpoints. A JSON array of endpoint names otherwise.
      ALTER TABLE channels ADD COLUMN endpoints TEXT;
      -- The upstream's own model list, fetched by POST /api/channels/{id}/models/sync (JSON), and when.
      ALTER TABLE channels ADD COLUMN synced_models TEXT;
      ALTER TABLE channels ADD COLUMN models_synced_at TEXT;
      ALTER TABLE usage_log ADD COLUMN endpoint TEXT NOT NULL DEFAULT 'chat';
      ALTER TABLE usage_log ADD COLUMN units REAL NOT NULL DEFAULT 0;
      CREATE INDEX usage_log_endpoint ON usage_log(endpoint, created_at);
      -- Micro-USD per image (and by variant, JSON), per search unit, per million characters, per audio minute.
      ALTER TABLE prices ADD COLUMN image INTEGER;
      ALTER TABLE prices ADD COLUMN image_variants TEXT;
      ALTER TABLE prices ADD COLUMN search_unit INTEGER;
      ALTER TABLE prices ADD COLUMN characters INTEGER;
      ALTER TABLE prices ADD COLUMN audio_minute INTEGER;
      -- OpenAI's list prices for the models the README's examples use (only rows an admin has not re-priced).
      -- No aggregate over the filtered rows: one without GROUP BY yields a row even when none match.
      INSERT INTO prices (position, model, input, output, image, image_variants)
        SELECT (SELECT COALESCE(MAX(position), 0) + 1 FROM prices), 'dall-e-3', 0, 0, 40000, '{"1024x1024":40000,"1024x1792":80000,"1792x1024":80000,"hd/1024x1024":80000,"hd/1024x1792":120000,"hd/1792x1024":120000}'
        WHERE NOT EXISTS (SELECT 1 FROM prices WHERE model = 'dall-e-3');
      INSERT INTO prices (position, model, input, output, image, image_variants)
        SELECT (SELECT COALESCE(MAX(position), 0) + 1 FROM prices), 'dall-e-2', 0, 0, 20000, '{"256x256":16000,"512x512":18000,"1024x1024":20000}'
        WHERE NOT EXISTS (SELECT 1 FROM prices WHERE model = 'dall-e-2');
      INSERT INTO prices (position, model, input, output)
        SELECT (SELECT COALESCE(MAX(position), 0) + 1 FROM prices), 'text-embedding-3-small', 20000, 0
        WHERE NOT EXISTS (SELECT 1 FROM prices WHERE model = 'text-embedding-3-small');
      INSERT INTO prices (position, model, input, output)
        SELECT (SELECT COALESCE(MAX(position), 0) + 1 FROM prices), 'text-embedding-3-large', 130000, 0
        WHERE NOT EXISTS (SELECT 1 FROM prices WHERE model = 'text-embedding-3-large');
      INSERT INTO prices (position, model, input, output, characters)
        SELECT (SELECT COALESCE(MAX(position), 0) + 1 FROM prices), 'tts-1', 0, 0, 15000000
        WHERE NOT EXISTS (SELECT 1 FROM prices WHERE model = 'tts-1');
      INSERT INTO prices (position, model, input, output, audio_minute)
        SELECT (SELECT COALESCE(MAX(position), 0) + 1 FROM prices), 'whisper-1', 0, 0, 6000
        WHERE NOT EXISTS (SELECT 1 FROM prices WHERE model = 'whisper-1');
    `,
  },
  {
    version: 9,
    name: 'instances sharing the database, an hourly usage rollup, an index for every log filter',
    sql: `
      -- Instances sharing the database mark themselves alive here; the reservations of one whose
      -- heartbeat is stale (or unknown) are given back by the others. NULL: taken before instances
      -- were recorded, so by a process long gone.
      CREATE TABLE relay_instances (
        instance_id TEXT PRIMARY KEY,
        heartbeat_at TEXT NOT NULL
      );
      ALTER TABLE quota_reservations ADD COLUMN instance_id TEXT;
      CREATE INDEX quota_reservations_instance ON quota_reservations(instance_id);

      -- The usage log summed per UTC hour and per what charts and totals group or filter by, written
      -- in the transaction that writes the rows: aggregates read it instead of the log, and it keeps
      -- the totals of rows the retention job deletes. No NULL in the key (a NULL never conflicts):
      -- 0 for no token, account or channel (ids start at 1), '' for no model.
      CREATE TABLE usage_rollup (
        hour TEXT NOT NULL,
        token_id INTEGER NOT NULL,
        account_id INTEGER NOT NULL,
        requested_model TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        endpoint TEXT NOT NULL,
        status INTEGER NOT NULL,
        requests INTEGER NOT NULL,
        errors INTEGER NOT NULL,
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        cache_read_tokens INTEGER NOT NULL,
        cache_write_tokens INTEGER NOT NULL,
        units REAL NOT NULL,
        cost INTEGER NOT NULL,
        PRIMARY KEY (hour, token_id, account_id, requested_model, channel_id, endpoint, status)
      ) WITHOUT ROWID;
      CREATE INDEX usage_rollup_token ON usage_rollup(token_id, hour);
      CREATE INDEX usage_rollup_account ON usage_rollup(account_id, hour);
      INSERT INTO usage_rollup
        SELECT substr(created_at, 1, 13) || ':00:00.000Z', COALESCE(token_id, 0), COALESCE(account_id, 0),
          COALESCE(requested_model, ''), COALESCE(channel_id, 0), endpoint, status, COUNT(*), SUM(status >= 400),
          SUM(prompt_tokens), SUM(completion_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens), SUM(units), SUM(cost)
        FROM usage_log GROUP BY 1, 2, 3, 4, 5, 6, 7;

      -- Every filter of the log listing, each ordered by time (newest first; the rowid breaks ties).
      CREATE INDEX usage_log_model ON usage_log(requested_model, created_at);
      CREATE INDEX usage_log_status ON usage_log(status, created_at);
      CREATE INDEX usage_log_channel ON usage_log(channel_id, created_at);
    `,
  },
  ...TASK_MIGRATIONS,
  ...RESPONSE_BOUND_MIGRATIONS,
  ...PASSTHROUGH_MIGRATIONS,
  ...CATALOGUE_MIGRATIONS,
  ...MONEY_MIGRATIONS,
  ...CLOUD_MIGRATIONS,
  ...LIMIT_MIGRATIONS,
  ...FALLBACK_MIGRATIONS,
  ...WEBHOOK_MIGRATIONS,
  ...USAGE_INDEX_MIGRATIONS,
];

/** Applies every migration newer than the database, each in its own transaction. */
export function migrate(db: Database.Database): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at TEXT)');
  const applied = new Set(
    db
      .prepare('SELECT version FROM schema_migrations')
      .all()
      .map((row) => (row as { version: number }).version),
  );
  const ran: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    })();
    ran.push(migration.version);
  }
  return ran;
}
