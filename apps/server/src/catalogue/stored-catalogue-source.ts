import type { CatalogueModel } from '@chat-relay/contract';
import type { CatalogueStore } from '../storage/types';
import type { CatalogueSource } from './model-catalogue-service';

/**
 * The catalogue's changes as the database keeps them (CatalogueStore), read by
 * ModelCatalogueService on every change and every periodic refresh (RELAY_REFRESH_MS): the
 * refreshed dataset (a few MB for the whole of models.dev) is read again only when its
 * description changed, and the same array is handed back otherwise.
 */
export class StoredCatalogueSource implements CatalogueSource {
  private cached: { version: string; models: readonly CatalogueModel[] } | undefined;

  constructor(private readonly store: CatalogueStore) {}

  async dataset(): Promise<readonly CatalogueModel[] | null> {
    const info = await this.store.datasetInfo();
    if (!info) {
      this.cached = undefined;
      return null;
    }
    const version = JSON.stringify([info.refreshedAt, info.origin, info.modelCount, info.skipped]);
    if (this.cached?.version !== version) {
      const stored = await this.store.dataset();
      if (!stored) return null;
      this.cached = { version: JSON.stringify([stored.refreshedAt, stored.origin, stored.models.length, stored.skipped]), models: stored.models };
    }
    return this.cached.models;
  }

  overrides(): Promise<readonly CatalogueModel[]> {
    return this.store.overrides();
  }
}
