/**
 * PostgreSQL version 13, the change SQLite makes at its version 20 (issue 30): the usage log's
 * account and assistant indexes hold only the rows that name one. PostgreSQL proves `c IS NOT NULL`
 * from a strict comparison on `c`, bound parameters included, so every query that filters by
 * either reads through its index as before.
 */
export const SCHEMA_V13 = `
  DROP INDEX usage_log_account;
  CREATE INDEX usage_log_account ON usage_log(account_id, created_at, id) WHERE account_id IS NOT NULL;
  DROP INDEX usage_log_assistant;
  CREATE INDEX usage_log_assistant ON usage_log(assistant_id, created_at) WHERE assistant_id IS NOT NULL;
`;
