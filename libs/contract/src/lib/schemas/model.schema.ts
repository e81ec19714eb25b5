import { z } from 'zod';
import { EndpointSchema } from './endpoint.schema';

export const ModelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
  /** The relay's own: what the model is served for through the relay (left out of Anthropic's shape). */
  endpoints: z.array(EndpointSchema).optional(),
});
export type Model = z.infer<typeof ModelSchema>;

export const ModelListSchema = z.object({ object: z.literal('list'), data: z.array(ModelSchema) });
export type ModelList = z.infer<typeof ModelListSchema>;
