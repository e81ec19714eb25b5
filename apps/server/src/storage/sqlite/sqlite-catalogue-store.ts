import type { CatalogueModel } from '@chat-relay/contract';
import type Database from 'better-sqlite3';
import type { CatalogueDatasetInfo, CatalogueDatasetRecord, CatalogueStore } from '../types';
import { SQLITE_CODEC } from '../rows/codec';
import {
  CATALOGUE_DATASET_INFO_COLUMNS,
  catalogueDatasetInfoOf,
  catalogueDatasetOf,
  catalogueDatasetValues,
  catalogueOverrideOf,
  type CatalogueDatasetInfoRow,
  type CatalogueDatasetRow,
  type CatalogueOverrideRow,
} from '../rows/catalogue-row';

export class SqliteCatalogueStore implements CatalogueStore {
  constructor(private readonly db: Database.Database) {}

  async dataset(): Promise<CatalogueDatasetRecord | null> {
    const row = this.db.prepare(`SELECT ${CATALOGUE_DATASET_INFO_COLUMNS}, models FROM catalogue_dataset WHERE slot = 1`).get() as
      | CatalogueDatasetRow
      | undefined;
    return row ? catalogueDatasetOf(row, SQLITE_CODEC) : null;
  }

  async datasetInfo(): Promise<CatalogueDatasetInfo | null> {
    const row = this.db.prepare(`SELECT ${CATALOGUE_DATASET_INFO_COLUMNS} FROM catalogue_dataset WHERE slot = 1`).get() as
      | CatalogueDatasetInfoRow
      | undefined;
    return row ? catalogueDatasetInfoOf(row) : null;
  }

  async replaceDataset(dataset: CatalogueDatasetRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO catalogue_dataset (slot, ${CATALOGUE_DATASET_INFO_COLUMNS}, models) VALUES (1, ?, ?, ?, ?, ?)
         ON CONFLICT (slot) DO UPDATE SET origin = excluded.origin, refreshed_at = excluded.refreshed_at,
           model_count = excluded.model_count, skipped = excluded.skipped, models = excluded.models`,
      )
      .run(...catalogueDatasetValues(dataset));
  }

  async clearDataset(): Promise<boolean> {
    return this.db.prepare('DELETE FROM catalogue_dataset').run().changes > 0;
  }

  async overrides(): Promise<CatalogueModel[]> {
    const rows = this.db.prepare('SELECT model FROM catalogue_overrides ORDER BY position').all() as CatalogueOverrideRow[];
    return rows.map((row) => catalogueOverrideOf(row, SQLITE_CODEC));
  }

  async putOverride(model: CatalogueModel, now: string): Promise<'created' | 'replaced'> {
    return this.db.transaction(() => {
      const replaced = this.db.prepare('UPDATE catalogue_overrides SET model = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(model), now, model.id);
      if (replaced.changes > 0) return 'replaced' as const;
      this.db.prepare('INSERT INTO catalogue_overrides (id, model, updated_at) VALUES (?, ?, ?)').run(model.id, JSON.stringify(model), now);
      return 'created' as const;
    })();
  }

  async deleteOverride(id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM catalogue_overrides WHERE id = ?').run(id).changes > 0;
  }
}
