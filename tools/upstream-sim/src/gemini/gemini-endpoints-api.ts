import { GEMINI_MAX_BATCH_EMBED_REQUESTS, GeminiEmbeddingTaskTypeSchema } from '@chat-relay/contract';
import { z } from 'zod';
import { ContentSchema } from './gemini-api';

// The Gemini API beside generateContent, as far as the simulator checks it: embeddings
// (`:embedContent`, `:batchEmbedContents`) and Imagen (`:predict`).

/** The most requests one `batchEmbedContents` call may carry. */
export const maxBatchEmbedRequests = GEMINI_MAX_BATCH_EMBED_REQUESTS;

const embedFields = {
  content: ContentSchema,
  taskType: GeminiEmbeddingTaskTypeSchema.optional(),
  title: z.string().optional(),
  outputDimensionality: z.number().int().min(1).optional(),
};

/** POST /v1beta/models/{model}:embedContent */
export const EmbedContentRequestSchema = z
  .object({ model: z.string().optional(), ...embedFields, x_sim: z.unknown().optional() })
  .passthrough();
export type EmbedContentRequest = z.infer<typeof EmbedContentRequestSchema>;

/** POST /v1beta/models/{model}:batchEmbedContents: every request names its model. */
export const BatchEmbedContentsRequestSchema = z
  .object({
    requests: z
      .array(z.object({ model: z.string().min(1), ...embedFields }).passthrough())
      .min(1, 'requests must not be empty.')
      .max(maxBatchEmbedRequests, `at most ${maxBatchEmbedRequests} requests can be in one batch.`),
    x_sim: z.unknown().optional(),
  })
  .passthrough();
export type BatchEmbedContentsRequest = z.infer<typeof BatchEmbedContentsRequestSchema>;

/** POST /v1beta/models/{imagen model}:predict */
export const PredictRequestSchema = z
  .object({
    instances: z.array(z.object({ prompt: z.string().min(1) }).passthrough()).min(1),
    parameters: z
      .object({
        sampleCount: z.number().int().min(1).max(4).optional(),
        aspectRatio: z.string().optional(),
        personGeneration: z.string().optional(),
        outputOptions: z.object({ mimeType: z.string().optional() }).passthrough().optional(),
      })
      .passthrough()
      .optional(),
    x_sim: z.unknown().optional(),
  })
  .passthrough();
export type PredictRequest = z.infer<typeof PredictRequestSchema>;
