/** PostgreSQL version 5, the change SQLite makes at its version 12: the bytes each stored response holds. */
export const SCHEMA_V5 = `
  -- The JSON kept (response and input items, UTF-8 bytes) counts against the account's bound.
  ALTER TABLE stored_responses ADD COLUMN size_bytes bigint NOT NULL DEFAULT 0;
  UPDATE stored_responses SET size_bytes = COALESCE(octet_length(response::text), 0) + COALESCE(octet_length(input_items::text), 0);
  -- An account's responses newest first, with what the bound counts.
  DROP INDEX stored_responses_account;
  CREATE INDEX stored_responses_account ON stored_responses(account_id, created_at, id) INCLUDE (expires_at, size_bytes);
`;
