import { z } from 'zod';

const tokenCount = z.number().int().nonnegative();

/** Web search / web fetch calls the model made, billed apart from tokens. */
const ServerToolUsageSchema = z
  .object({ web_search_requests: tokenCount.optional(), web_fetch_requests: tokenCount.optional() })
  .passthrough();

/**
 * `usage` of a Message (and of `message_start`). The total input is `input_tokens` +
 * `cache_creation_input_tokens` + `cache_read_input_tokens`.
 */
export const AnthropicUsageSchema = z
  .object({
    input_tokens: tokenCount,
    output_tokens: tokenCount,
    cache_creation_input_tokens: tokenCount.nullable().optional(),
    cache_read_input_tokens: tokenCount.nullable().optional(),
    /** Cache writes by time-to-live. */
    cache_creation: z
      .object({ ephemeral_5m_input_tokens: tokenCount.optional(), ephemeral_1h_input_tokens: tokenCount.optional() })
      .passthrough()
      .nullable()
      .optional(),
    server_tool_use: ServerToolUsageSchema.nullable().optional(),
    service_tier: z.string().nullable().optional(),
  })
  .passthrough();
export type AnthropicUsage = z.infer<typeof AnthropicUsageSchema>;

/** `usage` of `message_delta`: cumulative counts; only `output_tokens` is always there. */
export const AnthropicDeltaUsageSchema = z
  .object({
    output_tokens: tokenCount,
    input_tokens: tokenCount.nullable().optional(),
    cache_creation_input_tokens: tokenCount.nullable().optional(),
    cache_read_input_tokens: tokenCount.nullable().optional(),
    server_tool_use: ServerToolUsageSchema.nullable().optional(),
  })
  .passthrough();
export type AnthropicDeltaUsage = z.infer<typeof AnthropicDeltaUsageSchema>;
