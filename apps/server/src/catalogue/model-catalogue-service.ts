import type { CatalogueModel } from '@chat-relay/contract';
import { ModelCatalogue, seedCatalogueModels, type ModelFacts } from '@chat-relay/wire';
import { LocalChangeFeed, type ChangeFeed } from '../core/change-feed';

/** Where the catalogue's changes are kept: an admin's refreshed dataset and overrides (absent: the seed alone). */
export interface CatalogueSource {
  /** The dataset an admin loaded in place of the seed, or null for the seed. */
  dataset(): Promise<readonly CatalogueModel[] | null>;
  overrides(): Promise<readonly CatalogueModel[]>;
}

/**
 * The model catalogue as this instance holds it (issue 28): asked synchronously on the hot path
 * (the bridges' adjustments, prices, the reservation's output bound), reloaded in the background
 * when an admin writes an override or refreshes the dataset (the change feed tells every
 * instance). Until the first load ends, and if a load fails, it answers from the seed (or from
 * what it last loaded): a catalogue is advice, never a reason to refuse service.
 */
export class ModelCatalogueService {
  private catalogue = new ModelCatalogue(seedCatalogueModels());
  private loading: Promise<void> | undefined;

  constructor(
    private readonly source: CatalogueSource | undefined,
    private readonly changes: ChangeFeed = new LocalChangeFeed(),
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    changes.subscribe('catalogue', () => void this.load());
  }

  /** What is known of `model`: cheap (cached by name). */
  facts(model: string): ModelFacts {
    return this.catalogue.facts(model);
  }

  /** The catalogue as loaded now. */
  current(): ModelCatalogue {
    return this.catalogue;
  }

  /** Reads the stored dataset and overrides; concurrent calls share one read, a later call reads again. */
  load(): Promise<void> {
    const source = this.source;
    if (!source) return Promise.resolve();
    const run = async () => {
      try {
        const [dataset, overrides] = await Promise.all([source.dataset(), source.overrides()]);
        this.catalogue = dataset ? new ModelCatalogue(dataset, overrides, 'refresh') : new ModelCatalogue(seedCatalogueModels(), overrides);
      } catch (error) {
        this.onError(error);
      }
    };
    const next = (this.loading ?? Promise.resolve()).then(run);
    this.loading = next;
    return next;
  }

  /** An override or a refresh was written: every instance sharing the database reloads. */
  invalidate(): void {
    this.changes.publish('catalogue');
  }
}
