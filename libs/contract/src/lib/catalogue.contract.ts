import { initContract } from '@ts-rest/core';
import { commonResponses, meta } from './common-responses';
import {
  CatalogueDatasetSchema,
  CatalogueFactsSchema,
  CatalogueListQuerySchema,
  CatalogueListSchema,
  CatalogueModelParamSchema,
  CatalogueModelSchema,
  CatalogueOverrideBodySchema,
  CatalogueOverrideParamSchema,
  CatalogueRefreshSchema,
  UnpricedModelListSchema,
} from './schemas/model-catalogue.schema';

const c = initContract();
const admin = meta({ auth: 'admin' });

/** The model catalogue (issue 28): what each model accepts, costs and allows; the admin's overrides and refreshes. */
export const catalogueContract = c.router(
  {
    listCatalogue: {
      method: 'GET',
      path: '/api/catalogue',
      summary: 'Every catalogue entry with its source (seed, refresh, override), and the dataset in use',
      query: CatalogueListQuerySchema,
      responses: { 200: CatalogueListSchema },
      metadata: admin,
    },
    getCatalogueFacts: {
      method: 'GET',
      path: '/api/catalogue/models/:model',
      summary: 'What the relay knows of a model name as it resolves it: entry, family, limits, parameters, list price',
      pathParams: CatalogueModelParamSchema,
      responses: { 200: CatalogueFactsSchema },
      metadata: admin,
    },
    listUnpricedModels: {
      method: 'GET',
      path: '/api/catalogue/unpriced',
      summary: 'Models the channels serve that neither the price table nor the catalogue prices',
      responses: { 200: UnpricedModelListSchema },
      metadata: admin,
    },
    putCatalogueOverride: {
      method: 'PUT',
      path: '/api/catalogue/overrides/:id',
      summary: 'Write the override of an exact model id or a glob (the fields it changes)',
      pathParams: CatalogueOverrideParamSchema,
      body: CatalogueOverrideBodySchema,
      responses: { 200: CatalogueModelSchema, 201: CatalogueModelSchema },
      metadata: admin,
    },
    deleteCatalogueOverride: {
      method: 'DELETE',
      path: '/api/catalogue/overrides/:id',
      pathParams: CatalogueOverrideParamSchema,
      responses: { 204: c.noBody() },
      metadata: admin,
    },
    refreshCatalogue: {
      method: 'POST',
      path: '/api/catalogue/refresh',
      summary: "Replace the seed with models.dev's api.json: posted as the body, or fetched from {\"url\"}",
      body: CatalogueRefreshSchema,
      responses: { 200: CatalogueDatasetSchema },
      metadata: admin,
    },
    resetCatalogue: {
      method: 'DELETE',
      path: '/api/catalogue/refresh',
      summary: 'Back to the seed that ships with the relay',
      responses: { 200: CatalogueDatasetSchema },
      metadata: admin,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
