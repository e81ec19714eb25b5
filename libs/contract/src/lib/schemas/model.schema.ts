import { z } from 'zod';
import { EndpointSchema } from './endpoint.schema';

/**
 * What a model costs through the relay, USD per million tokens: the operator's price table, else
 * the model catalogue's list price (issue 28). The relay's own field, left out of other shapes.
 */
export const ModelPricingSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cache_read: z.number().nonnegative().optional(),
  cache_write: z.number().nonnegative().optional(),
});
export type ModelPricing = z.infer<typeof ModelPricingSchema>;

export const ModelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
  /** The relay's own: what the model is served for through the relay (left out of Anthropic's shape). */
  endpoints: z.array(EndpointSchema).optional(),
  /** From the model catalogue, only when it knows them (OpenAI clients ignore fields they do not know). */
  context_window: z.number().int().positive().optional(),
  max_output_tokens: z.number().int().positive().optional(),
  pricing: ModelPricingSchema.optional(),
});
export type Model = z.infer<typeof ModelSchema>;

export const ModelListSchema = z.object({ object: z.literal('list'), data: z.array(ModelSchema) });
export type ModelList = z.infer<typeof ModelListSchema>;
