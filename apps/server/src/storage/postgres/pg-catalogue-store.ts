import type { CatalogueModel } from '@chat-relay/contract';
import type pg from 'pg';
import type { CatalogueDatasetInfo, CatalogueDatasetRecord, CatalogueStore } from '../types';
import { PG_CODEC } from '../rows/codec';
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

/** The catalogue's tables in PostgreSQL, behaving as SqliteCatalogueStore does. */
export class PgCatalogueStore implements CatalogueStore {
  constructor(private readonly pool: pg.Pool) {}

  async dataset(): Promise<CatalogueDatasetRecord | null> {
    const { rows } = await this.pool.query<CatalogueDatasetRow>(`SELECT ${CATALOGUE_DATASET_INFO_COLUMNS}, models FROM catalogue_dataset WHERE slot = 1`);
    return rows[0] ? catalogueDatasetOf(rows[0], PG_CODEC) : null;
  }

  async datasetInfo(): Promise<CatalogueDatasetInfo | null> {
    const { rows } = await this.pool.query<CatalogueDatasetInfoRow>(`SELECT ${CATALOGUE_DATASET_INFO_COLUMNS} FROM catalogue_dataset WHERE slot = 1`);
    return rows[0] ? catalogueDatasetInfoOf(rows[0]) : null;
  }

  async replaceDataset(dataset: CatalogueDatasetRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO catalogue_dataset (slot, ${CATALOGUE_DATASET_INFO_COLUMNS}, models) VALUES (1, $1, $2, $3, $4, $5)
       ON CONFLICT (slot) DO UPDATE SET origin = excluded.origin, refreshed_at = excluded.refreshed_at,
         model_count = excluded.model_count, skipped = excluded.skipped, models = excluded.models`,
      catalogueDatasetValues(dataset),
    );
  }

  async clearDataset(): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM catalogue_dataset');
    return (rowCount ?? 0) > 0;
  }

  async overrides(): Promise<CatalogueModel[]> {
    const { rows } = await this.pool.query<CatalogueOverrideRow>('SELECT model FROM catalogue_overrides ORDER BY position');
    return rows.map((row) => catalogueOverrideOf(row, PG_CODEC));
  }

  /** One statement: a concurrent writer of the same id is an update, never a duplicate-key failure. */
  async putOverride(model: CatalogueModel, now: string): Promise<'created' | 'replaced'> {
    const { rows } = await this.pool.query<{ created: boolean }>(
      `INSERT INTO catalogue_overrides (id, model, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET model = excluded.model, updated_at = excluded.updated_at
       RETURNING (xmax = 0) AS created`,
      [model.id, JSON.stringify(model), now],
    );
    return rows[0]?.created ? 'created' : 'replaced';
  }

  async deleteOverride(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM catalogue_overrides WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }
}
