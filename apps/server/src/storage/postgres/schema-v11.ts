/** PostgreSQL version 11, the change SQLite makes at its version 18 (issue 32): fallback rules, and each usage row's fallback path. */
export const SCHEMA_V11 = `
  CREATE TABLE fallback_rules (
    id serial PRIMARY KEY,
    model text NOT NULL,
    fallbacks jsonb NOT NULL,
    triggers jsonb NOT NULL,
    enabled boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  );
  ALTER TABLE usage_log ADD COLUMN fallback_path text;
`;
