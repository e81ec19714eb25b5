import type { Migration } from './migration';

/** The migration of issue 28 (the model catalogue's overrides and refreshed dataset): append only, in order. */
export const CATALOGUE_MIGRATIONS: readonly Migration[] = [
  {
    version: 14,
    name: 'the model catalogue: overrides, and a refreshed dataset in place of the seed',
    sql: `
      -- The operator's overrides, each a CatalogueModel (JSON) keyed by its exact id or glob; the
      -- position keeps the order they were first written (a glob written first wins).
      CREATE TABLE catalogue_overrides (
        position INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        model TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      -- At most one row (slot 1): a models.dev dataset an admin loaded in place of the seed; no
      -- row, the seed that ships with the relay. models: the CatalogueModel array (JSON).
      CREATE TABLE catalogue_dataset (
        slot INTEGER PRIMARY KEY CHECK (slot = 1),
        origin TEXT NOT NULL,
        refreshed_at TEXT NOT NULL,
        model_count INTEGER NOT NULL,
        skipped INTEGER NOT NULL,
        models TEXT NOT NULL
      );
    `,
  },
];
