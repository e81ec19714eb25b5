import { z } from 'zod';

/**
 * Which provider's rules a model follows (what it refuses, how it reasons): the family the
 * wire library's per-family rules are written for. `other` has no rules beyond the catalogue's.
 */
export const ModelFamilySchema = z.enum(['openai', 'anthropic', 'gemini', 'other']);
export type ModelFamily = z.infer<typeof ModelFamilySchema>;

/** How a model can be asked to reason, as models.dev records it. */
export const ReasoningOptionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('toggle') }).strict(),
  z.object({ type: z.literal('effort'), values: z.array(z.string().max(20)).max(10) }).strict(),
  z.object({ type: z.literal('budget_tokens'), min: z.number().int().optional(), max: z.number().int().optional() }).strict(),
]);
export type ReasoningOption = z.infer<typeof ReasoningOptionSchema>;

/** Which sampling parameters a model takes; absent, the family's rule decides. */
export const ModelParamsSchema = z
  .object({
    temperature: z.boolean().optional(),
    top_p: z.boolean().optional(),
    /** `temperature` and `top_p` together (Claude 4.5 and later refuse both at once). */
    temperature_with_top_p: z.boolean().optional(),
    top_k: z.boolean().optional(),
    /** `frequency_penalty` and `presence_penalty`. */
    penalties: z.boolean().optional(),
    seed: z.boolean().optional(),
    logprobs: z.boolean().optional(),
    n: z.boolean().optional(),
  })
  .strict();
export type ModelParams = z.infer<typeof ModelParamsSchema>;

const usdPerMillion = z.number().nonnegative().max(1_000_000);

/** List prices in USD per million tokens, as models.dev gives them. */
export const ModelListPriceSchema = z
  .object({
    input: usdPerMillion,
    output: usdPerMillion,
    cache_read: usdPerMillion.optional(),
    cache_write: usdPerMillion.optional(),
    input_audio: usdPerMillion.optional(),
    output_audio: usdPerMillion.optional(),
  })
  .strict();
export type ModelListPrice = z.infer<typeof ModelListPriceSchema>;

const tokenCount = z.number().int().positive().max(100_000_000);

/**
 * What the relay knows of one model (issue 28): what it accepts, what it costs, how much it
 * reads and writes. `id` is an exact model id or a glob (`claude-*-4-5*`). An operator's
 * override names only the fields it changes; the rest come from the dataset's entry of that id.
 */
export const CatalogueModelSchema = z
  .object({
    id: z.string().trim().min(1).max(200),
    /** The dataset's provider (models.dev's id: `openai`, `anthropic`, `google` …). */
    provider: z.string().max(100).optional(),
    name: z.string().max(200).optional(),
    family: ModelFamilySchema.optional(),
    context_window: tokenCount.optional(),
    max_output_tokens: tokenCount.optional(),
    reasoning: z.boolean().optional(),
    reasoning_options: z.array(ReasoningOptionSchema).max(10).optional(),
    params: ModelParamsSchema.optional(),
    tool_call: z.boolean().optional(),
    structured_output: z.boolean().optional(),
    modalities: z
      .object({ input: z.array(z.string().max(20)).max(10), output: z.array(z.string().max(20)).max(10) })
      .strict()
      .optional(),
    cost: ModelListPriceSchema.optional(),
    /** `deprecated`, `beta`, `alpha` when the dataset says so. */
    status: z.string().max(20).optional(),
  })
  .strict();
export type CatalogueModel = z.infer<typeof CatalogueModelSchema>;

/** GET /api/catalogue: every entry the relay knows, with where it came from. */
export const CatalogueEntrySchema = CatalogueModelSchema.extend({
  source: z.enum(['seed', 'refresh', 'override']),
});
export type CatalogueEntry = z.infer<typeof CatalogueEntrySchema>;

/** Which dataset the catalogue holds: the seed shipped with the relay, or one an admin refreshed it from. */
export const CatalogueDatasetSchema = z.object({
  source: z.enum(['seed', 'refresh']),
  /** The seed's repository, the URL a refresh was fetched from, or `upload`. */
  origin: z.string(),
  /** The seed's models.dev commit. */
  commit: z.string().optional(),
  /** The seed's date (YYYY-MM-DD) or when the refresh was loaded (ISO 8601). */
  date: z.string(),
  models: z.number().int().nonnegative(),
  /** A refresh's entries that could not be read. */
  skipped: z.number().int().nonnegative().optional(),
});
export type CatalogueDataset = z.infer<typeof CatalogueDatasetSchema>;

export const CatalogueListQuerySchema = z
  .object({
    /** Part of an id or a name, any case. */
    q: z.string().max(200).optional(),
    /** A dataset provider id (`openai`, `anthropic`, `google` …). */
    provider: z.string().max(100).optional(),
  })
  .strict();
export type CatalogueListQuery = z.infer<typeof CatalogueListQuerySchema>;

export const CatalogueListSchema = z.object({ data: z.array(CatalogueEntrySchema), dataset: CatalogueDatasetSchema });
export type CatalogueList = z.infer<typeof CatalogueListSchema>;

/** A model name in a path, whatever its text (a `/` sent as %2F). */
export const CatalogueModelParamSchema = z.object({ model: z.string().min(1).max(256) });
export const CatalogueOverrideParamSchema = z.object({ id: z.string().trim().min(1).max(200) });

/** GET /api/catalogue/models/{model}: what the relay knows of a name, as it resolves it. */
export const CatalogueFactsSchema = z.object({
  model: z.string(),
  /** The entry matched (with its override merged in), or null when the catalogue does not know the name. */
  entry: CatalogueEntrySchema.nullable(),
  family: ModelFamilySchema,
  context_window: z.number().int().nullable(),
  max_output_tokens: z.number().int().nullable(),
  reasoning: z.boolean().nullable(),
  reasoning_options: z.array(ReasoningOptionSchema),
  /** Every sampling parameter decided: the entry's, else the family's rule. */
  params: ModelParamsSchema.required(),
  /** USD per million tokens, from the catalogue (the price table may charge otherwise). */
  list_price: ModelListPriceSchema.nullable(),
});
export type CatalogueFacts = z.infer<typeof CatalogueFactsSchema>;

/** PUT /api/catalogue/overrides/{id}: the fields to change; `id`, when given, must be the path's. */
export const CatalogueOverrideBodySchema = CatalogueModelSchema.partial({ id: true });
export type CatalogueOverrideBody = z.infer<typeof CatalogueOverrideBodySchema>;

/** POST /api/catalogue/refresh from a URL the relay fetches (where its network allows). */
export const CatalogueRefreshFromUrlSchema = z
  .object({ url: z.string().url().max(2048).refine((url) => /^https?:\/\//i.test(url), 'must be an http(s) URL') })
  .strict();

/** models.dev's api.json as a whole: providers by id, each with its models (read by the wire library's readModelsDev). */
export const ModelsDevApiSchema = z.record(
  z.string(),
  z.object({ id: z.string().min(1).max(100), models: z.record(z.string(), z.unknown()) }).passthrough(),
);

export const CatalogueRefreshSchema = z.union([CatalogueRefreshFromUrlSchema, ModelsDevApiSchema]);
export type CatalogueRefresh = z.infer<typeof CatalogueRefreshSchema>;

/** GET /api/catalogue/unpriced: models channels serve that neither the price table nor the catalogue prices. */
export const UnpricedModelSchema = z.object({
  model: z.string(),
  /** The name sent upstream (a channel's mapping), when it differs. */
  upstream_model: z.string(),
  channels: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export const UnpricedModelListSchema = z.object({ data: z.array(UnpricedModelSchema) });
export type UnpricedModelList = z.infer<typeof UnpricedModelListSchema>;
