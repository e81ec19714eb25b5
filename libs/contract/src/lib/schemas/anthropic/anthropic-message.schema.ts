import { z } from 'zod';
import { AnthropicContentBlockSchema } from './anthropic-content-block.schema';
import { AnthropicUsageSchema } from './anthropic-usage.schema';

export const ANTHROPIC_STOP_REASONS = [
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
] as const;
export const AnthropicStopReasonSchema = z.enum(ANTHROPIC_STOP_REASONS);
export type AnthropicStopReason = z.infer<typeof AnthropicStopReasonSchema>;

/**
 * The answer of POST /v1/messages (and the `message` of `message_start`, where `content` is
 * empty and `stop_reason` null). Later fields (`container`, `stop_details`, …) are kept.
 */
export const AnthropicMessageSchema = z
  .object({
    id: z.string(),
    type: z.literal('message'),
    role: z.literal('assistant'),
    content: z.array(AnthropicContentBlockSchema),
    model: z.string(),
    stop_reason: AnthropicStopReasonSchema.nullable(),
    stop_sequence: z.string().nullable(),
    usage: AnthropicUsageSchema,
  })
  .passthrough();
export type AnthropicMessage = z.infer<typeof AnthropicMessageSchema>;
