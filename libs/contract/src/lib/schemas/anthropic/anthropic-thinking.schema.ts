import { z } from 'zod';

/** Anthropic's floor for a thinking budget. */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1024;

/** `display` (summarized | omitted) and later options are kept as sent. */
export const AnthropicThinkingConfigSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(ANTHROPIC_MIN_THINKING_BUDGET) })
    .passthrough(),
  z.object({ type: z.literal('adaptive') }).passthrough(),
  z.object({ type: z.literal('disabled') }).passthrough(),
  // Typed by the Anthropic SDK (1.12) beside the three above.
  z.object({ type: z.literal('between_tools') }).passthrough(),
]);
export type AnthropicThinkingConfig = z.infer<typeof AnthropicThinkingConfigSchema>;
