import {
  catalogueContract,
  CatalogueModelSchema,
  ModelsDevApiSchema,
  type CatalogueDataset,
  type CatalogueEntry,
  type CatalogueFacts,
} from '@chat-relay/contract';
import { initServer } from '@ts-rest/express';
import { invalidRequest, modelsDevSeedVersion, notFound, readModelsDev, seedCatalogueModels } from '@chat-relay/wire';
import type { PriceBook } from '../billing/price-book';
import type { ChannelRegistry } from '../channels/channel-registry';
import { fetchModelsDevJson } from '../catalogue/fetch-models-dev';
import { firstPartyFirst } from '../catalogue/first-party-first';
import type { ModelCatalogueService } from '../catalogue/model-catalogue-service';
import { unpricedModels } from '../catalogue/unpriced-models';
import type { CatalogueStore } from '../storage/types';

export interface CatalogueRouteDeps {
  store: CatalogueStore;
  catalogue: ModelCatalogueService;
  priceBook: PriceBook;
  registry: ChannelRegistry;
}

const overrideNotFound = (id: string) => notFound('catalogue_override_not_found', `No catalogue override has the id ${JSON.stringify(id)}.`, 'id');

const includes = (text: string | undefined, needle: string): boolean => text !== undefined && text.toLowerCase().includes(needle);

/** The admin's view of the model catalogue (issue 28): listing, one name's facts, overrides, refreshes, unpriced models. */
export function catalogueRouter(deps: CatalogueRouteDeps) {
  const s = initServer();

  const datasetView = async (): Promise<CatalogueDataset> => {
    const info = await deps.store.datasetInfo();
    if (!info) {
      const { source, commit, date } = modelsDevSeedVersion;
      return { source: 'seed', origin: source, commit, date, models: seedCatalogueModels().length };
    }
    return { source: 'refresh', origin: info.origin, date: info.refreshedAt, models: info.modelCount, skipped: info.skipped };
  };

  /** Stores a dataset read from models.dev's JSON; refused when no model can be read from it. */
  const refreshFrom = async (json: unknown, origin: string): Promise<CatalogueDataset> => {
    let read: ReturnType<typeof readModelsDev>;
    try {
      read = readModelsDev(firstPartyFirst(json));
    } catch (error) {
      throw invalidRequest(`${(error as Error).message}: send models.dev's api.json (https://models.dev/api.json).`, null, 'invalid_catalogue');
    }
    if (read.models.length === 0) {
      throw invalidRequest("No model could be read from it: send models.dev's api.json (https://models.dev/api.json).", null, 'invalid_catalogue');
    }
    await deps.store.replaceDataset({ models: read.models, origin, refreshedAt: new Date().toISOString(), skipped: read.skipped });
    await deps.catalogue.changed();
    return datasetView();
  };

  return s.router(catalogueContract, {
    listCatalogue: async ({ query }) => {
      const needle = query.q?.trim().toLowerCase() ?? '';
      const provider = query.provider?.trim().toLowerCase();
      const data = deps.catalogue
        .current()
        .list()
        .filter(
          (entry: CatalogueEntry) =>
            (needle === '' || includes(entry.id, needle) || includes(entry.name, needle)) &&
            (provider === undefined || provider === '' || entry.provider?.toLowerCase() === provider),
        );
      return { status: 200, body: { data, dataset: await datasetView() } };
    },

    getCatalogueFacts: async ({ params }) => {
      const facts = deps.catalogue.facts(params.model);
      const source = deps.catalogue.sourceOf(params.model);
      const body: CatalogueFacts = {
        model: params.model,
        entry: facts.entry && source ? { ...facts.entry, source } : null,
        family: facts.family,
        context_window: facts.contextWindow ?? null,
        max_output_tokens: facts.maxOutputTokens ?? null,
        reasoning: facts.reasoning ?? null,
        reasoning_options: [...facts.reasoningOptions],
        params: facts.params,
        list_price: facts.cost ?? null,
      };
      return { status: 200, body };
    },

    listUnpricedModels: async () => ({
      status: 200,
      body: { data: await unpricedModels(await deps.registry.all(), { priceBook: deps.priceBook, catalogue: deps.catalogue }) },
    }),

    putCatalogueOverride: async ({ params, body }) => {
      if (body.id !== undefined && body.id !== params.id) {
        throw invalidRequest(`The body's id (${JSON.stringify(body.id)}) is not the path's (${JSON.stringify(params.id)}).`, 'id', 'invalid_value');
      }
      const model = CatalogueModelSchema.parse({ ...body, id: params.id });
      const outcome = await deps.store.putOverride(model, new Date().toISOString());
      await deps.catalogue.changed();
      return { status: outcome === 'created' ? 201 : 200, body: model };
    },

    deleteCatalogueOverride: async ({ params }) => {
      if (!(await deps.store.deleteOverride(params.id))) throw overrideNotFound(params.id);
      await deps.catalogue.changed();
      return { status: 204, body: undefined };
    },

    refreshCatalogue: async ({ body }) => {
      if ('url' in body && typeof body.url === 'string' && !ModelsDevApiSchema.safeParse(body).success) {
        const json = await fetchModelsDevJson(body.url);
        return { status: 200, body: await refreshFrom(json, body.url) };
      }
      return { status: 200, body: await refreshFrom(body, 'upload') };
    },

    resetCatalogue: async () => {
      if (await deps.store.clearDataset()) await deps.catalogue.changed();
      return { status: 200, body: await datasetView() };
    },
  });
}
