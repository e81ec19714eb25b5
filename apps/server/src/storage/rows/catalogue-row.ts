import type { CatalogueModel } from '@chat-relay/contract';
import type { CatalogueDatasetInfo, CatalogueDatasetRecord } from '../catalogue-types';
import type { JsonColumn, RowCodec } from './codec';
import { requiredJson } from './codec';

/** The one `catalogue_dataset` row as both backends read it (without `models` for the info). */
export interface CatalogueDatasetInfoRow {
  origin: string;
  refreshed_at: string;
  model_count: number;
  skipped: number;
}
export interface CatalogueDatasetRow extends CatalogueDatasetInfoRow {
  models: JsonColumn<CatalogueModel[]>;
}

/** A `catalogue_overrides` row. */
export interface CatalogueOverrideRow {
  model: JsonColumn<CatalogueModel>;
}

export const CATALOGUE_DATASET_INFO_COLUMNS = 'origin, refreshed_at, model_count, skipped';

export const catalogueDatasetInfoOf = (row: CatalogueDatasetInfoRow): CatalogueDatasetInfo => ({
  origin: row.origin,
  refreshedAt: row.refreshed_at,
  modelCount: Number(row.model_count),
  skipped: Number(row.skipped),
});

export const catalogueDatasetOf = (row: CatalogueDatasetRow, codec: RowCodec): CatalogueDatasetRecord => ({
  models: requiredJson(codec, row.models),
  origin: row.origin,
  refreshedAt: row.refreshed_at,
  skipped: Number(row.skipped),
});

/** The row's values as written: origin, refreshed_at, model_count, skipped, models (JSON text). */
export const catalogueDatasetValues = (dataset: CatalogueDatasetRecord): Array<string | number> => [
  dataset.origin,
  dataset.refreshedAt,
  dataset.models.length,
  dataset.skipped,
  JSON.stringify(dataset.models),
];

export const catalogueOverrideOf = (row: CatalogueOverrideRow, codec: RowCodec): CatalogueModel => requiredJson(codec, row.model);
