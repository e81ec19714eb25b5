import type { CatalogueModel } from '@chat-relay/contract';
import type { CatalogueStore } from '../storage/types';
import type { CatalogueSource } from './model-catalogue-service';

/** The catalogue's changes as the database keeps them (CatalogueStore), read by ModelCatalogueService. */
export class StoredCatalogueSource implements CatalogueSource {
  constructor(private readonly store: CatalogueStore) {}

  async dataset(): Promise<readonly CatalogueModel[] | null> {
    return (await this.store.dataset())?.models ?? null;
  }

  overrides(): Promise<readonly CatalogueModel[]> {
    return this.store.overrides();
  }
}
