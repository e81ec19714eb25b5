import type { Migration } from './migration';

/** The entries migration 15 seeds when absent: OpenAI's moderation models, free of charge. */
export const FREE_SEEDED_MODELS: readonly string[] = ['omni-moderation-*', 'text-moderation-*'];

/**
 * The migration of issue 28 (money by the model that served), apart to keep files short: still
 * append only, in order.
 */
export const MONEY_MIGRATIONS: readonly Migration[] = [
  {
    version: 15,
    name: 'prices carry only the units that apply, free on purpose; the price each log row was charged at',
    sql: `
      -- input and output may be NULL (a model priced only by its units: a video model), so the table
      -- is rebuilt (SQLite cannot drop NOT NULL in place); free: served for nothing on purpose.
      CREATE TABLE prices_v15 (
        position INTEGER NOT NULL,
        model TEXT NOT NULL UNIQUE,
        input INTEGER,
        output INTEGER,
        cache_read INTEGER,
        cache_write INTEGER,
        image INTEGER,
        image_variants TEXT,
        search_unit INTEGER,
        characters INTEGER,
        audio_minute INTEGER,
        video_second INTEGER,
        video_second_variants TEXT,
        song INTEGER,
        search_query INTEGER,
        tool_calls TEXT,
        service_tiers TEXT,
        audio_output INTEGER,
        free INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO prices_v15 (position, model, input, output, cache_read, cache_write, image, image_variants, search_unit, characters,
          audio_minute, video_second, video_second_variants, song, search_query, tool_calls, service_tiers, audio_output)
        SELECT position, model, input, output, cache_read, cache_write, image, image_variants, search_unit, characters,
          audio_minute, video_second, video_second_variants, song, search_query, tool_calls, service_tiers, audio_output
        FROM prices;
      DROP TABLE prices;
      ALTER TABLE prices_v15 RENAME TO prices;
      -- OpenAI's moderation models cost nothing (its price list): free on purpose, so they are not refused as unpriced.
      INSERT INTO prices (position, model, free)
        SELECT (SELECT COALESCE(MAX(position), 0) + 1 FROM prices), 'omni-moderation-*', 1
        WHERE NOT EXISTS (SELECT 1 FROM prices WHERE model = 'omni-moderation-*');
      INSERT INTO prices (position, model, free)
        SELECT (SELECT COALESCE(MAX(position), 0) + 1 FROM prices), 'text-moderation-*', 1
        WHERE NOT EXISTS (SELECT 1 FROM prices WHERE model = 'text-moderation-*');
      -- Which price charged the row: 'gpt-4o* (table)', 'gpt-4o (catalogue)'; NULL: none (refused before pricing, or older rows).
      ALTER TABLE usage_log ADD COLUMN priced_by TEXT;
    `,
  },
];
