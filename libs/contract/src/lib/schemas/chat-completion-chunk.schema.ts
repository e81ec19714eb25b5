import { z } from 'zod';
import { FinishReasonSchema } from './chat-completion-response.schema';
import { LegacyFunctionCallSchema, ToolCallDeltaSchema } from './tool.schema';
import { UsageSchema } from './usage.schema';

export const ChatCompletionDeltaSchema = z
  .object({
    role: z.enum(['assistant', 'developer', 'system', 'user', 'tool']).optional(),
    content: z.string().nullable().optional(),
    refusal: z.string().nullable().optional(),
    tool_calls: z.array(ToolCallDeltaSchema).optional(),
    function_call: LegacyFunctionCallSchema.partial().optional(),
  })
  .passthrough();

export const ChatCompletionChunkChoiceSchema = z
  .object({
    index: z.number().int().nonnegative(),
    delta: ChatCompletionDeltaSchema,
    finish_reason: FinishReasonSchema.nullable(),
    logprobs: z.unknown().nullable().optional(),
  })
  .passthrough();

/** One streamed event (`object: "chat.completion.chunk"`); the usage chunk has `choices: []`. */
export const ChatCompletionChunkSchema = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(ChatCompletionChunkChoiceSchema),
    usage: UsageSchema.nullable().optional(),
    system_fingerprint: z.string().nullable().optional(),
    service_tier: z.string().nullable().optional(),
  })
  .passthrough();
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunkSchema>;
