import { z } from 'zod';
import { MAX_OUTPUT_TOKENS } from '../chat-completion-request.schema';
import { optionalCacheControl } from './anthropic-cache-control.schema';
import { AnthropicMessageParamSchema, AnthropicSystemParamSchema } from './anthropic-message-param.schema';
import { AnthropicThinkingConfigSchema } from './anthropic-thinking.schema';
import { AnthropicToolChoiceSchema, AnthropicToolSchema } from './anthropic-tool.schema';
import { modelChainFields, requireModel, withModelFromChain } from '../fallback.schema';

/**
 * What describes the prompt of a Messages request, and all that `count_tokens` takes. Fields the
 * relay does not read (`container`, `mcp_servers`, `context_management`, `diagnostics`, …) are
 * kept by `passthrough`, never dropped.
 */
export const AnthropicMessagesPromptSchema = z
  .object({
    model: z.string().min(1, 'must not be empty'),
    messages: z.array(AnthropicMessageParamSchema).min(1, 'must contain at least one message'),
    system: AnthropicSystemParamSchema.optional(),
    tools: z.array(AnthropicToolSchema).optional(),
    tool_choice: AnthropicToolChoiceSchema.optional(),
    thinking: AnthropicThinkingConfigSchema.optional(),
    output_config: z
      .object({
        effort: z.string().nullable().optional(),
        format: z.object({ type: z.string() }).passthrough().nullable().optional(),
      })
      .passthrough()
      .optional(),
    /** Automatic prompt caching: one breakpoint for the whole request. */
    cache_control: optionalCacheControl(),
  })
  .passthrough();
export type AnthropicMessagesPrompt = z.infer<typeof AnthropicMessagesPromptSchema>;

/**
 * POST /v1/messages (Anthropic Messages API, `anthropic-version: 2023-06-01`). Typed fields are
 * checked; every other field is kept. `max_tokens` shares the chat request's upper bound, which
 * keeps a reservation an exact integer of micro-USD.
 */
export const AnthropicMessagesRequestFieldsSchema = AnthropicMessagesPromptSchema.extend({
  max_tokens: z.number().int().min(1).max(MAX_OUTPUT_TOKENS),
  stream: z.boolean().optional(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).optional(),
  metadata: z.object({ user_id: z.string().nullable().optional() }).passthrough().optional(),
  service_tier: z.string().optional(),
});

/** With a chain across models (`models` / `fallbacks`, issue 32): `model` may be left out when `models` names it. */
export const AnthropicMessagesRequestSchema = AnthropicMessagesRequestFieldsSchema.extend(modelChainFields)
  .superRefine(requireModel)
  .transform(withModelFromChain);
export type AnthropicMessagesRequest = z.infer<typeof AnthropicMessagesRequestSchema>;
