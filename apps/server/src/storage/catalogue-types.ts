import type { CatalogueModel } from '@chat-relay/contract';

/**
 * A models.dev dataset an admin loaded in place of the seed that ships with the relay (issue 28):
 * the models read from it, where it came from and when.
 */
export interface CatalogueDatasetRecord {
  models: CatalogueModel[];
  /** The URL it was fetched from, or `upload` for a file posted to the admin API. */
  origin: string;
  refreshedAt: string;
  /** Entries of the file left out because they could not be read. */
  skipped: number;
}

/** The dataset's description without its models (what the admin listing shows). */
export type CatalogueDatasetInfo = Omit<CatalogueDatasetRecord, 'models'> & { modelCount: number };

/**
 * The catalogue's changes, kept in the database: the refreshed dataset (at most one) and the
 * operator's overrides, each a CatalogueModel keyed by its `id` (an exact model id or a glob).
 * The relay's ModelCatalogueService reads both on every instance when one writes.
 */
export interface CatalogueStore {
  dataset(): Promise<CatalogueDatasetRecord | null>;
  datasetInfo(): Promise<CatalogueDatasetInfo | null>;
  /** Replaces the refreshed dataset (or sets the first one). */
  replaceDataset(dataset: CatalogueDatasetRecord): Promise<void>;
  /** Back to the seed; false when no dataset was stored. */
  clearDataset(): Promise<boolean>;
  /** Every override in the order first written (a glob written first wins over a later one). */
  overrides(): Promise<CatalogueModel[]>;
  /** Writes the override of `model.id`, replacing one of the same id (which keeps its place): `created` when none was. */
  putOverride(model: CatalogueModel, now: string): Promise<'created' | 'replaced'>;
  /** False when no override has that id. */
  deleteOverride(id: string): Promise<boolean>;
}
