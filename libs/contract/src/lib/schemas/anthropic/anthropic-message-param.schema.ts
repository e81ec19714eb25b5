import { z } from 'zod';
import { AnthropicContentBlockParamSchema, AnthropicTextBlockParamSchema } from './anthropic-content-block-param.schema';

/** `system` (top level): a string, or text blocks that may carry cache breakpoints. */
export const AnthropicSystemParamSchema = z.union([z.string(), z.array(AnthropicTextBlockParamSchema)]);
export type AnthropicSystemParam = z.infer<typeof AnthropicSystemParamSchema>;

const contentSchema = z.union([z.string(), z.array(AnthropicContentBlockParamSchema)]);

export const AnthropicUserMessageParamSchema = z.object({ role: z.literal('user'), content: contentSchema }).passthrough();
export const AnthropicAssistantMessageParamSchema = z
  .object({ role: z.literal('assistant'), content: contentSchema })
  .passthrough();
/**
 * A system turn inside `messages`: text only. The Anthropic SDK (1.12) types it as a
 * `MessageParam`, so the relay accepts it rather than refuse what Anthropic takes.
 */
export const AnthropicSystemMessageParamSchema = z
  .object({ role: z.literal('system'), content: AnthropicSystemParamSchema })
  .passthrough();

export const AnthropicMessageParamSchema = z.discriminatedUnion('role', [
  AnthropicUserMessageParamSchema,
  AnthropicAssistantMessageParamSchema,
  AnthropicSystemMessageParamSchema,
]);
export type AnthropicMessageParam = z.infer<typeof AnthropicMessageParamSchema>;
