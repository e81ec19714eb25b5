/**
 * PostgreSQL version 8, the change SQLite makes at its version 15 (issue 28): prices carry only
 * the units that apply and may be free on purpose; each log row says which price charged it.
 */
export const SCHEMA_V8 = `
  ALTER TABLE prices ALTER COLUMN input DROP NOT NULL;
  ALTER TABLE prices ALTER COLUMN output DROP NOT NULL;
  ALTER TABLE prices ADD COLUMN free boolean NOT NULL DEFAULT false;
  -- OpenAI's moderation models cost nothing (its price list): free on purpose, so they are not refused as unpriced.
  INSERT INTO prices (position, model, free)
    SELECT (SELECT COALESCE(MAX(position), 0) + 1 FROM prices), 'omni-moderation-*', true
    WHERE NOT EXISTS (SELECT 1 FROM prices WHERE model = 'omni-moderation-*');
  INSERT INTO prices (position, model, free)
    SELECT (SELECT COALESCE(MAX(position), 0) + 1 FROM prices), 'text-moderation-*', true
    WHERE NOT EXISTS (SELECT 1 FROM prices WHERE model = 'text-moderation-*');
  -- Which price charged the row: 'gpt-4o* (table)', 'gpt-4o (catalogue)'; NULL: none.
  ALTER TABLE usage_log ADD COLUMN priced_by text;
`;
