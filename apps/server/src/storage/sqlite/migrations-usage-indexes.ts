import type { Migration } from './migration';

/**
 * Version 20 (issue 30): the usage log's account and assistant indexes hold only the rows that
 * name one. A filter `account_id = ?` or `assistant_id = ?` never matches NULL, and SQLite uses a
 * partial index `WHERE c IS NOT NULL` for any comparison on `c` (bound values too), so every query
 * reads as before; a request with no account or no assistant — most of them — no longer pays an
 * index entry it can never be found by (~0.5 µs a row each, docs/PERFORMANCE.md, seventeenth pass).
 */
export const USAGE_INDEX_MIGRATIONS: readonly Migration[] = [
  {
    version: 20,
    name: 'the usage log indexes only the rows that name an account or an assistant by them',
    sql: `
      DROP INDEX usage_log_account;
      CREATE INDEX usage_log_account ON usage_log(account_id, created_at) WHERE account_id IS NOT NULL;
      DROP INDEX usage_log_assistant;
      CREATE INDEX usage_log_assistant ON usage_log(assistant_id, created_at) WHERE assistant_id IS NOT NULL;
    `,
  },
];
