import { z } from 'zod';
import { EndpointModelSchema, PromptUsageSchema, TokenIdsSchema } from './endpoint-common.schema';

/** OpenAI's bounds: at most 2048 inputs, none empty. */
export const EmbeddingInputSchema = z.union([
  z.string().min(1),
  z.array(z.string().min(1)).min(1).max(2048),
  TokenIdsSchema,
  z.array(TokenIdsSchema).min(1).max(2048),
]);

/** `POST /v1/embeddings`. Unknown fields are kept and forwarded. */
export const EmbeddingRequestSchema = z
  .object({
    input: EmbeddingInputSchema,
    model: EndpointModelSchema,
    encoding_format: z.enum(['float', 'base64']).optional(),
    dimensions: z.number().int().min(1).optional(),
    user: z.string().optional(),
  })
  .passthrough();
export type EmbeddingRequest = z.infer<typeof EmbeddingRequestSchema>;

/** One vector: numbers, or (encoding_format base64) their little-endian float32 bytes in base64. */
export const EmbeddingSchema = z
  .object({ object: z.literal('embedding'), embedding: z.union([z.array(z.number()), z.string()]), index: z.number().int() })
  .passthrough();

export const EmbeddingListSchema = z
  .object({ object: z.literal('list'), data: z.array(EmbeddingSchema), model: z.string(), usage: PromptUsageSchema })
  .passthrough();
export type EmbeddingList = z.infer<typeof EmbeddingListSchema>;
