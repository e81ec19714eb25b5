/** PostgreSQL version 3, the change SQLite makes at its version 10: the prices of the task and search endpoints. */
export const SCHEMA_V3 = `
  -- Micro-USD per second of video (and by size: key order as the admin wrote it, so json), per song,
  -- per web search query; NULL: not priced.
  ALTER TABLE prices ADD COLUMN video_second bigint;
  ALTER TABLE prices ADD COLUMN video_second_variants json;
  ALTER TABLE prices ADD COLUMN song bigint;
  ALTER TABLE prices ADD COLUMN search_query bigint;
`;
