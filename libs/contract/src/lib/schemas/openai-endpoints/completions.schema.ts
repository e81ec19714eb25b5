import { z } from 'zod';
import { EndpointModelSchema, nullish, TokenIdsSchema } from './endpoint-common.schema';

/** A prompt: text, texts, token ids, or lists of token ids (one completion each). */
export const CompletionPromptSchema = z.union([
  z.string(),
  z.array(z.string()).min(1).max(2048),
  TokenIdsSchema,
  z.array(TokenIdsSchema).min(1).max(2048),
]);

/** `POST /v1/completions`: legacy text completions. Unknown fields are kept and forwarded. */
export const CompletionRequestSchema = z
  .object({
    model: EndpointModelSchema,
    prompt: CompletionPromptSchema,
    best_of: nullish(z.number().int().min(0).max(20)),
    echo: nullish(z.boolean()),
    frequency_penalty: nullish(z.number().min(-2).max(2)),
    logit_bias: nullish(z.record(z.number().int().min(-100).max(100))),
    logprobs: nullish(z.number().int().min(0).max(5)),
    /** OpenAI's default is 16. */
    max_tokens: nullish(z.number().int().min(0)),
    n: nullish(z.number().int().min(1).max(128)),
    presence_penalty: nullish(z.number().min(-2).max(2)),
    seed: nullish(z.number().int()),
    stop: nullish(z.union([z.string(), z.array(z.string()).min(1).max(4)])),
    stream: nullish(z.boolean()),
    stream_options: nullish(z.object({ include_usage: z.boolean().optional() }).passthrough()),
    suffix: nullish(z.string()),
    temperature: nullish(z.number().min(0).max(2)),
    top_p: nullish(z.number().min(0).max(1)),
    user: z.string().optional(),
  })
  .passthrough();
export type CompletionRequest = z.infer<typeof CompletionRequestSchema>;

export const CompletionLogprobsSchema = z
  .object({
    text_offset: z.array(z.number()).optional(),
    token_logprobs: z.array(z.number().nullable()).optional(),
    tokens: z.array(z.string()).optional(),
    top_logprobs: z.array(z.record(z.number()).nullable()).optional(),
  })
  .passthrough();

export const CompletionChoiceSchema = z
  .object({
    text: z.string(),
    index: z.number().int(),
    logprobs: CompletionLogprobsSchema.nullable(),
    finish_reason: z.enum(['stop', 'length', 'content_filter']).nullable(),
  })
  .passthrough();

export const CompletionUsageSchema = z
  .object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() })
  .passthrough();

/** A `text_completion`; a streamed answer is a series of these with partial `text` (finish_reason null until the end). */
export const CompletionSchema = z
  .object({
    id: z.string(),
    object: z.literal('text_completion'),
    created: z.number().int(),
    model: z.string(),
    system_fingerprint: z.string().optional(),
    choices: z.array(CompletionChoiceSchema),
    usage: CompletionUsageSchema.nullish(),
  })
  .passthrough();
export type Completion = z.infer<typeof CompletionSchema>;
