import { z } from 'zod';
import { MAX_OUTPUT_TOKENS } from '../chat-completion-request.schema';
import { unknownTypedObject } from '../anthropic/anthropic-unknown-type.schema';
import { ResponseInputItemSchema } from './responses-item.schema';
import { modelChainFields, requireModel, withModelFromChain } from '../fallback.schema';

const nullish = <T extends z.ZodTypeAny>(schema: T) => schema.nullable().optional();

/** A function the model may call; `parameters` is a JSON Schema object. */
export const ResponsesFunctionToolSchema = z
  .object({
    type: z.literal('function'),
    name: z.string().min(1),
    description: nullish(z.string()),
    parameters: nullish(z.record(z.unknown())),
    strict: nullish(z.boolean()),
  })
  .passthrough();
export type ResponsesFunctionTool = z.infer<typeof ResponsesFunctionToolSchema>;

/** A function tool, or a hosted one (`web_search`, `file_search`, `mcp`, `custom` …) kept as sent. */
export const ResponsesToolSchema = z.union([ResponsesFunctionToolSchema, unknownTypedObject(['function'])]);
export type ResponsesTool = z.infer<typeof ResponsesToolSchema>;

export const ResponsesToolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), name: z.string().min(1) }).passthrough(),
  unknownTypedObject(['function']),
]);
export type ResponsesToolChoice = z.infer<typeof ResponsesToolChoiceSchema>;

/** Keyed by `type`, so a json_schema format without `name` is reported at `text.format.name`. */
export const ResponsesTextFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }).passthrough(),
  z.object({ type: z.literal('json_object') }).passthrough(),
  z
    .object({
      type: z.literal('json_schema'),
      name: z.string().min(1),
      schema: z.record(z.unknown()),
      description: z.string().optional(),
      strict: nullish(z.boolean()),
    })
    .passthrough(),
]);
export type ResponsesTextFormat = z.infer<typeof ResponsesTextFormatSchema>;

export const ResponsesTextConfigSchema = z
  .object({ format: ResponsesTextFormatSchema.optional(), verbosity: nullish(z.string()) })
  .passthrough();

export const ResponsesReasoningConfigSchema = z
  .object({
    effort: nullish(z.string()),
    summary: nullish(z.string()),
    generate_summary: nullish(z.string()),
  })
  .passthrough();

/**
 * POST /v1/responses. `input` is a string (one user message) or a list of items. Typed fields
 * are checked; every other field (`service_tier`, `safety_identifier`, `prompt`, `conversation`,
 * `max_tool_calls`, `stream_options` …) is kept as sent.
 *
 * Where this is stricter or looser than OpenAI's published schema (CreateResponse), on purpose:
 * `model` is required unless `models` names it (the relay routes on it; OpenAI can take it from a stored prompt);
 * `max_output_tokens` may be below OpenAI's minimum of 16 (other upstreams take any positive
 * count; OpenAI itself will answer 400); a function tool may leave out `strict` and
 * `parameters`, and an echoed `function_call` may carry `status: null`, as SDKs send them; a
 * `function_call_output` needs its `call_id` (OpenAI's schema leaves it optional; nothing could
 * pair the output with its call).
 */
export const ResponsesRequestSchema = z
  .object({
    input: z.union([z.string(), z.array(ResponseInputItemSchema)]).optional(),
    instructions: nullish(z.string()),
    tools: z.array(ResponsesToolSchema).optional(),
    tool_choice: ResponsesToolChoiceSchema.optional(),
    parallel_tool_calls: nullish(z.boolean()),
    text: ResponsesTextConfigSchema.optional(),
    reasoning: nullish(ResponsesReasoningConfigSchema),
    max_output_tokens: nullish(z.number().int().min(1).max(MAX_OUTPUT_TOKENS)),
    temperature: nullish(z.number().min(0).max(2)),
    top_p: nullish(z.number().min(0).max(1)),
    top_logprobs: nullish(z.number().int().min(0).max(20)),
    store: nullish(z.boolean()),
    previous_response_id: nullish(z.string().min(1)),
    include: nullish(z.array(z.string())),
    metadata: nullish(z.record(z.string())),
    stream: nullish(z.boolean()),
    background: nullish(z.boolean()),
    prompt_cache_key: nullish(z.string()),
    truncation: nullish(z.enum(['auto', 'disabled'])),
    user: z.string().optional(),
    ...modelChainFields,
  })
  .passthrough()
  .superRefine(requireModel)
  .transform(withModelFromChain);
export type ResponsesRequest = z.infer<typeof ResponsesRequestSchema>;
