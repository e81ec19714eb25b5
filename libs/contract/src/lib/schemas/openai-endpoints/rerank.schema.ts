import { z } from 'zod';
import { EndpointModelSchema } from './endpoint-common.schema';

/** A document to rank: text, or an object with `text` (Cohere's and Jina's forms). */
export const RerankDocumentSchema = z.union([z.string(), z.object({ text: z.string() }).passthrough()]);

/**
 * `POST /v1/rerank` in the Cohere/Jina shape (vLLM, TEI, Jina and Cohere-compatible servers
 * take it at `{base_url}/rerank`). Unknown fields are kept and forwarded.
 */
export const RerankRequestSchema = z
  .object({
    model: EndpointModelSchema,
    query: z.string().min(1),
    documents: z.array(RerankDocumentSchema).min(1).max(10_000),
    top_n: z.number().int().min(1).optional(),
    return_documents: z.boolean().optional(),
  })
  .passthrough();
export type RerankRequest = z.infer<typeof RerankRequestSchema>;

export const RerankResultSchema = z
  .object({
    index: z.number().int().nonnegative(),
    relevance_score: z.number(),
    /** With `return_documents`: the document as ranked. */
    document: RerankDocumentSchema.optional(),
  })
  .passthrough();

/** Results best first. `usage` and `meta` are the upstream's, when it reports them. */
export const RerankResponseSchema = z
  .object({
    id: z.string().optional(),
    model: z.string(),
    results: z.array(RerankResultSchema),
    usage: z.object({ total_tokens: z.number().int().optional(), search_units: z.number().optional() }).passthrough().optional(),
  })
  .passthrough();
export type RerankResponse = z.infer<typeof RerankResponseSchema>;
