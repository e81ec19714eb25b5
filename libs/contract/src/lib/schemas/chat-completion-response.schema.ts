import { z } from 'zod';
import { LegacyFunctionCallSchema, ToolCallSchema } from './tool.schema';
import { UsageSchema } from './usage.schema';

export const FinishReasonSchema = z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);
export type FinishReason = z.infer<typeof FinishReasonSchema>;

export const ChatCompletionMessageSchema = z
  .object({
    role: z.literal('assistant'),
    content: z.string().nullable(),
    refusal: z.string().nullable().optional(),
    tool_calls: z.array(ToolCallSchema).optional(),
    function_call: LegacyFunctionCallSchema.nullable().optional(),
    annotations: z.array(z.unknown()).optional(),
  })
  .passthrough();
export type ChatCompletionMessage = z.infer<typeof ChatCompletionMessageSchema>;

export const ChatCompletionChoiceSchema = z
  .object({
    index: z.number().int().nonnegative(),
    message: ChatCompletionMessageSchema,
    finish_reason: FinishReasonSchema,
    logprobs: z.unknown().nullable().optional(),
  })
  .passthrough();

/** A non-streamed answer (`object: "chat.completion"`). */
export const ChatCompletionSchema = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(ChatCompletionChoiceSchema),
    usage: UsageSchema.optional(),
    system_fingerprint: z.string().nullable().optional(),
    service_tier: z.string().nullable().optional(),
  })
  .passthrough();
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;
