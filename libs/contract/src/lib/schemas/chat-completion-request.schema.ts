import { z } from 'zod';
import { MessageSchema } from './message.schema';
import { modelChainFields, requireModel, withModelFromChain } from './fallback.schema';
import {
  FunctionDefinitionSchema,
  LegacyFunctionCallChoiceSchema,
  ToolChoiceSchema,
  ToolSchema,
} from './tool.schema';

export const ResponseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }).passthrough(),
  z.object({ type: z.literal('json_object') }).passthrough(),
  z
    .object({
      type: z.literal('json_schema'),
      json_schema: z
        .object({
          name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, underscores or dashes'),
          description: z.string().optional(),
          schema: z.record(z.unknown()).optional(),
          strict: z.boolean().nullable().optional(),
        })
        .passthrough(),
    })
    .passthrough(),
]);
export type ResponseFormat = z.infer<typeof ResponseFormatSchema>;

export const StreamOptionsSchema = z
  .object({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() })
  .passthrough();

const nullableNumber = (min: number, max: number) => z.number().min(min).max(max).nullable().optional();

/**
 * The largest `max_tokens` / `max_completion_tokens` accepted: far above any model's output
 * limit (upstreams refuse more anyway), and small enough that a request's reservation stays an
 * exact integer of micro-USD (these fields, and `n`, multiply the cost reserved).
 */
export const MAX_OUTPUT_TOKENS = 10_000_000;
/** The most choices (`n`) one request may ask for. */
export const MAX_CHOICES = 128;
const outputTokenLimit = () => z.number().int().min(1).max(MAX_OUTPUT_TOKENS).nullable().optional();

/**
 * POST /v1/chat/completions (SPEC §7). Fields we know are typed; every other field is kept
 * (`passthrough`) and forwarded to OpenAI-compatible upstreams, never silently dropped — except
 * `models` / `fallbacks` (a chain across models, issue 32), which the relay reads and strips.
 */
export const ChatCompletionRequestSchema = z
  .object({
    messages: z.array(MessageSchema).min(1, 'must contain at least one message'),
    tools: z.array(ToolSchema).optional(),
    tool_choice: ToolChoiceSchema.optional(),
    parallel_tool_calls: z.boolean().optional(),
    functions: z.array(FunctionDefinitionSchema).min(1).optional(),
    function_call: LegacyFunctionCallChoiceSchema.optional(),
    stream: z.boolean().nullable().optional(),
    stream_options: StreamOptionsSchema.nullable().optional(),
    response_format: ResponseFormatSchema.optional(),
    temperature: nullableNumber(0, 2),
    top_p: nullableNumber(0, 1),
    frequency_penalty: nullableNumber(-2, 2),
    presence_penalty: nullableNumber(-2, 2),
    n: z.number().int().min(1).max(MAX_CHOICES).nullable().optional(),
    seed: z.number().int().nullable().optional(),
    stop: z.union([z.string(), z.array(z.string()).max(4)]).nullable().optional(),
    max_tokens: outputTokenLimit(),
    max_completion_tokens: outputTokenLimit(),
    logit_bias: z.record(z.number()).nullable().optional(),
    logprobs: z.boolean().nullable().optional(),
    top_logprobs: z.number().int().min(0).max(20).nullable().optional(),
    user: z.string().optional(),
    store: z.boolean().nullable().optional(),
    metadata: z.record(z.string()).nullable().optional(),
    reasoning_effort: z.string().nullable().optional(),
    service_tier: z.string().nullable().optional(),
    ...modelChainFields,
  })
  .passthrough()
  .superRefine(requireModel)
  .transform(withModelFromChain);
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;
