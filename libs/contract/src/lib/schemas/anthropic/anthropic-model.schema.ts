import { z } from 'zod';

/** One model as GET /v1/models/{model_id} describes it in the Anthropic dialect; later fields kept. */
export const AnthropicModelSchema = z
  .object({
    type: z.literal('model'),
    id: z.string(),
    display_name: z.string(),
    /** RFC 3339, e.g. `2025-02-19T00:00:00Z`. */
    created_at: z.string().datetime({ offset: true }),
  })
  .passthrough();
export type AnthropicModel = z.infer<typeof AnthropicModelSchema>;

/** GET /v1/models in the Anthropic dialect: one page, with the ids that bound it. */
export const AnthropicModelListSchema = z
  .object({
    data: z.array(AnthropicModelSchema),
    has_more: z.boolean(),
    first_id: z.string().nullable(),
    last_id: z.string().nullable(),
  })
  .passthrough();
export type AnthropicModelList = z.infer<typeof AnthropicModelListSchema>;
