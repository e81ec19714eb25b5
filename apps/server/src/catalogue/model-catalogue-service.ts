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
  /** The dataset under the overrides, and which one it is: what an entry's `source` is told from. */
  private dataset: { models: readonly CatalogueModel[]; source: 'seed' | 'refresh' } = { models: seedCatalogueModels(), source: 'seed' };
  private datasetOnly: ModelCatalogue | undefined;
  private overridesKey = '[]';
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

  /** Which dataset is loaded (the seed or an admin's refresh) and how many models it holds. */
  datasetLoaded(): { source: 'seed' | 'refresh'; models: number } {
    return { source: this.dataset.source, models: this.dataset.models.length };
  }

  /**
   * Where what `facts(model)` answers comes from: an override when one changed the dataset's
   * entry (or made one), else the dataset; undefined for a model neither knows.
   */
  sourceOf(model: string): 'seed' | 'refresh' | 'override' | undefined {
    const entry = this.catalogue.facts(model).entry;
    if (!entry) return undefined;
    this.datasetOnly ??= new ModelCatalogue(this.dataset.models, [], this.dataset.source);
    const base = this.datasetOnly.facts(model).entry;
    return base && JSON.stringify(base) === JSON.stringify(entry) ? this.dataset.source : 'override';
  }

  /** Reads the stored dataset and overrides; concurrent calls share one read, a later call reads again. */
  load(): Promise<void> {
    const source = this.source;
    if (!source) return Promise.resolve();
    const run = async () => {
      try {
        const [dataset, overrides] = await Promise.all([source.dataset(), source.overrides()]);
        const models = dataset ?? seedCatalogueModels();
        const overridesKey = JSON.stringify(overrides);
        // A periodic refresh that finds nothing changed keeps the catalogue and its cached answers.
        if (models === this.dataset.models && overridesKey === this.overridesKey) return;
        this.dataset = { models, source: dataset ? 'refresh' : 'seed' };
        this.overridesKey = overridesKey;
        this.catalogue = new ModelCatalogue(models, overrides, this.dataset.source);
        this.datasetOnly = undefined;
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

  /** As `invalidate`, resolved once this instance has reloaded (an admin's write reads back what it wrote). */
  async changed(): Promise<void> {
    this.invalidate();
    await this.loading;
  }
}
