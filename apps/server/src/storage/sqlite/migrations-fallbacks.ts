import type { Migration } from './migration';

/**
 * Issue 32, fallback across models: the admin rules (a model or glob → ordered fallbacks, the
 * failure classes that trigger them) and, on each usage row, the path a chain took.
 */
export const FALLBACK_MIGRATIONS: readonly Migration[] = [
  {
    version: 18,
    name: 'fallback rules across models, and the fallback path of each usage row',
    sql: `
      CREATE TABLE fallback_rules (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        model TEXT NOT NULL,
        -- JSON arrays: model names in order; trigger names (FallbackTrigger).
        fallbacks TEXT NOT NULL,
        triggers TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- 'a>b': the models tried, the served one last; NULL when the requested model served.
      ALTER TABLE usage_log ADD COLUMN fallback_path TEXT;
    `,
  },
];
