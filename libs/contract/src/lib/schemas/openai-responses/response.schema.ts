import { z } from 'zod';
import { ResponseListedItemSchema, ResponseOutputItemSchema } from './responses-item.schema';

export const ResponseUsageSchema = z
  .object({
    input_tokens: z.number().int().nonnegative(),
    input_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative() }).passthrough().optional(),
    output_tokens: z.number().int().nonnegative(),
    output_tokens_details: z.object({ reasoning_tokens: z.number().int().nonnegative() }).passthrough().optional(),
    total_tokens: z.number().int().nonnegative(),
  })
  .passthrough();
export type ResponseUsage = z.infer<typeof ResponseUsageSchema>;

export const ResponseStatusSchema = z.enum(['completed', 'failed', 'in_progress', 'cancelled', 'queued', 'incomplete']);
export type ResponseStatus = z.infer<typeof ResponseStatusSchema>;

export const ResponseErrorSchema = z.object({ code: z.string(), message: z.string() }).passthrough();

/**
 * The Response object (`object: "response"`): what `POST /v1/responses` answers, what a stream's
 * `response.*` lifecycle events carry and what retrieval returns. It echoes the request's
 * settings (`instructions`, `tools`, `text`, `reasoning` …), kept by `passthrough`.
 *
 * Looser than OpenAI's published schema where OpenAI's own answers or other upstreams are:
 * `usage` is null until the response completes, `error.code` is any string (OpenAI sends
 * `insufficient_quota`, outside its enum), and the echoed settings OpenAI's schema requires
 * (`tools`, `tool_choice`, `metadata`, `temperature`, `top_p`, `parallel_tool_calls`,
 * `instructions`) may be missing. A Response the relay builds itself should carry them all.
 */
export const ResponseObjectSchema = z
  .object({
    id: z.string(),
    object: z.literal('response'),
    /** Unix seconds, an integer as OpenAI's schema says (`unixtime`). */
    created_at: z.number().int(),
    completed_at: z.number().int().nullable().optional(),
    status: ResponseStatusSchema,
    model: z.string(),
    output: z.array(ResponseOutputItemSchema),
    error: ResponseErrorSchema.nullable().optional(),
    incomplete_details: z.object({ reason: z.string() }).passthrough().nullable().optional(),
    previous_response_id: z.string().nullable().optional(),
    usage: ResponseUsageSchema.nullable().optional(),
  })
  .passthrough();
export type ResponseObject = z.infer<typeof ResponseObjectSchema>;

export const ResponseDeletedSchema = z.object({ id: z.string(), object: z.literal('response'), deleted: z.literal(true) });
export type ResponseDeleted = z.infer<typeof ResponseDeletedSchema>;

/** `GET /v1/responses/{id}/input_items`: a cursor page of the items the response was given. */
export const ResponseInputItemListSchema = z.object({
  object: z.literal('list'),
  data: z.array(ResponseListedItemSchema),
  /** Null on an empty page (OpenAI's schema says string; there is no id to give). */
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});
export type ResponseInputItemList = z.infer<typeof ResponseInputItemListSchema>;

export const ResponseInputItemListQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    after: z.string().optional(),
    before: z.string().optional(),
    include: z.union([z.string(), z.array(z.string())]).optional(),
  })
  .passthrough();
export type ResponseInputItemListQuery = z.infer<typeof ResponseInputItemListQuerySchema>;

export const ResponseRetrieveQuerySchema = z
  .object({
    include: z.union([z.string(), z.array(z.string())]).optional(),
    stream: z.string().optional(),
    starting_after: z.coerce.number().int().optional(),
  })
  .passthrough();
