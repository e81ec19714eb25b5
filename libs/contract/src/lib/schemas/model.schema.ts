import { z } from 'zod';

export const ModelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
});
export type Model = z.infer<typeof ModelSchema>;

export const ModelListSchema = z.object({ object: z.literal('list'), data: z.array(ModelSchema) });
export type ModelList = z.infer<typeof ModelListSchema>;
