import { z } from 'zod';

/**
 * A model as Gemini's `models.get` and `models.list` describe it
 * (https://ai.google.dev/api/models#Model): `name` is `models/{model}`, the methods are those the
 * Gemini routes serve it for. Fields the relay does not know (default temperature, topP, topK)
 * are left out rather than guessed.
 */
export const GeminiModelSchema = z.object({
  name: z.string(),
  baseModelId: z.string().optional(),
  version: z.string(),
  displayName: z.string(),
  description: z.string(),
  inputTokenLimit: z.number().int().optional(),
  outputTokenLimit: z.number().int().optional(),
  supportedGenerationMethods: z.array(z.string()),
  thinking: z.boolean().optional(),
  temperature: z.number().optional(),
  maxTemperature: z.number().optional(),
  topP: z.number().optional(),
  topK: z.number().int().optional(),
});
export type GeminiModel = z.infer<typeof GeminiModelSchema>;

/** `GET /v1beta/models`: one page; `nextPageToken` only when more follow. */
export const GeminiModelListSchema = z.object({
  models: z.array(GeminiModelSchema),
  nextPageToken: z.string().optional(),
});
export type GeminiModelList = z.infer<typeof GeminiModelListSchema>;

/** Google's page size: 50 when not given (or 0), at most 1000 whatever is asked. */
export const GEMINI_MODEL_PAGE = { default: 50, max: 1000 } as const;

/**
 * `?pageSize=&pageToken=` (and `key`, the API key, as on every Gemini route). A negative or
 * fractional size is refused, as Google refuses it; a larger one is capped.
 */
export const GeminiModelListQuerySchema = z.object({
  pageSize: z.coerce.number().int('must be an integer').nonnegative('must be a non-negative integer').optional(),
  pageToken: z.string().optional(),
  key: z.string().optional(),
});
export type GeminiModelListQuery = z.infer<typeof GeminiModelListQuerySchema>;

/** `GET /v1beta/models/{model}`: the name with or without `models/` (the SDK's `models.get` sends it without the prefix in the path). */
export const GeminiModelParamsSchema = z.object({ model: z.string().min(1) });
