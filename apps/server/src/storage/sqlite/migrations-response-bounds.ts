import type { Migration } from './migration';

/**
 * The migration of issue 26 that bounds what an account keeps of the Responses API: still
 * append only, in order after the others.
 */
export const RESPONSE_BOUND_MIGRATIONS: readonly Migration[] = [
  {
    version: 12,
    name: 'the bytes each stored response holds, for the per-account bound',
    sql: `
      -- The JSON kept (response and input items, UTF-8 bytes) counts against the account's bound.
      ALTER TABLE stored_responses ADD COLUMN size_bytes INTEGER NOT NULL DEFAULT 0;
      UPDATE stored_responses SET size_bytes = COALESCE(length(CAST(response AS BLOB)), 0) + COALESCE(length(CAST(input_items AS BLOB)), 0);
      -- An account's responses newest first, with what the bound counts: the index alone answers
      -- it (the rows themselves hold the large JSON before these columns).
      DROP INDEX stored_responses_account;
      CREATE INDEX stored_responses_account ON stored_responses(account_id, created_at, id, expires_at, size_bytes);
    `,
  },
];
