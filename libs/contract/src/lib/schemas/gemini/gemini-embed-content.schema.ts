import { z } from 'zod';
import { GeminiContentParamSchema } from './gemini-content.schema';
import { geminiProtoObject } from './gemini-proto-object.schema';

/** The task types Google documents for embeddings (https://ai.google.dev/api/embeddings#TaskType). */
export const GeminiEmbeddingTaskTypeSchema = z.enum([
  'TASK_TYPE_UNSPECIFIED',
  'RETRIEVAL_QUERY',
  'RETRIEVAL_DOCUMENT',
  'SEMANTIC_SIMILARITY',
  'CLASSIFICATION',
  'CLUSTERING',
  'QUESTION_ANSWERING',
  'FACT_VERIFICATION',
  'CODE_RETRIEVAL_QUERY',
]);

/** The most requests one `batchEmbedContents` call may carry, as Google limits it. */
export const GEMINI_MAX_BATCH_EMBED_REQUESTS = 100;

/** `POST /v1beta/models/{model}:embedContent` (https://ai.google.dev/api/embeddings#method:-models.embedcontent). */
export const GeminiEmbedContentRequestSchema = geminiProtoObject({
  /** `models/{model}`; the URL's model decides. */
  model: z.string().optional(),
  content: GeminiContentParamSchema,
  taskType: GeminiEmbeddingTaskTypeSchema.optional(),
  title: z.string().optional(),
  outputDimensionality: z.number().int().min(1, 'must be at least 1').optional(),
});
export type GeminiEmbedContentRequest = z.infer<typeof GeminiEmbedContentRequestSchema>;

/** `POST /v1beta/models/{model}:batchEmbedContents`: each request names the URL's model, as `models/{model}`. */
export const GeminiBatchEmbedContentsRequestSchema = geminiProtoObject({
  requests: z
    .array(GeminiEmbedContentRequestSchema)
    .min(1, 'must not be empty')
    .max(GEMINI_MAX_BATCH_EMBED_REQUESTS, `at most ${GEMINI_MAX_BATCH_EMBED_REQUESTS} requests can be in one batch`),
});
export type GeminiBatchEmbedContentsRequest = z.infer<typeof GeminiBatchEmbedContentsRequestSchema>;

export const GeminiContentEmbeddingSchema = z.object({ values: z.array(z.number()) });
export type GeminiContentEmbedding = z.infer<typeof GeminiContentEmbeddingSchema>;

export const GeminiEmbedContentResponseSchema = z.object({ embedding: GeminiContentEmbeddingSchema });
export type GeminiEmbedContentResponse = z.infer<typeof GeminiEmbedContentResponseSchema>;

export const GeminiBatchEmbedContentsResponseSchema = z.object({ embeddings: z.array(GeminiContentEmbeddingSchema) });
export type GeminiBatchEmbedContentsResponse = z.infer<typeof GeminiBatchEmbedContentsResponseSchema>;
