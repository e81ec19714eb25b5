import type { Migration } from './migration';

/** The migration of issue 31 (the three clouds), apart to keep files short: still append only, in order. */
export const CLOUD_MIGRATIONS: readonly Migration[] = [
  {
    version: 16,
    name: "a cloud channel's region and API version",
    sql: `
      -- {"region": "us-east-1", "api_version": "2024-10-21"}; NULL for a channel that is no cloud's.
      ALTER TABLE channels ADD COLUMN cloud TEXT;
    `,
  },
];
