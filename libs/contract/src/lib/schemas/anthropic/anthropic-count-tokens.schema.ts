import { z } from 'zod';
import { AnthropicMessagesPromptSchema } from './anthropic-messages-request.schema';

/** POST /v1/messages/count_tokens: the prompt of a Messages request, without `max_tokens` or `stream`. */
export const AnthropicCountTokensRequestSchema = AnthropicMessagesPromptSchema;
export type AnthropicCountTokensRequest = z.infer<typeof AnthropicCountTokensRequestSchema>;

/** Its answer; the beta adds `context_management`, kept. */
export const AnthropicCountTokensResponseSchema = z
  .object({ input_tokens: z.number().int().nonnegative() })
  .passthrough();
export type AnthropicCountTokensResponse = z.infer<typeof AnthropicCountTokensResponseSchema>;
