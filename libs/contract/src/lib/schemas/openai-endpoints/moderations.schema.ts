import { z } from 'zod';
import { EndpointModelSchema } from './endpoint-common.schema';

/** The model used when a moderation request names none (OpenAI's default). */
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

const ModerationInputPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).passthrough(),
  /** A URL (`https:` or a `data:` URL), as OpenAI's `format: uri` asks. */
  z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string().url() }).passthrough() }).passthrough(),
]);

/** `POST /v1/moderations`: text, texts, or (omni models) text and image parts. */
export const ModerationRequestSchema = z
  .object({
    input: z.union([z.string(), z.array(z.string()).min(1), z.array(ModerationInputPartSchema).min(1)]),
    model: EndpointModelSchema.optional(),
  })
  .passthrough();
export type ModerationRequest = z.infer<typeof ModerationRequestSchema>;

export const ModerationResultSchema = z
  .object({
    flagged: z.boolean(),
    /** `null` where the model has no such category (OpenAI documents it for `illicit` and `illicit/violent`). */
    categories: z.record(z.boolean().nullable()),
    category_scores: z.record(z.number()),
    category_applied_input_types: z.record(z.array(z.string())).optional(),
  })
  .passthrough();

export const ModerationResponseSchema = z
  .object({ id: z.string(), model: z.string(), results: z.array(ModerationResultSchema) })
  .passthrough();
export type ModerationResponse = z.infer<typeof ModerationResponseSchema>;
