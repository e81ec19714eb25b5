/** PostgreSQL version 9, the change SQLite makes at its version 16 (issue 31): a cloud channel's region and API version. */
export const SCHEMA_V9 = `
  ALTER TABLE channels ADD COLUMN cloud jsonb;
`;
