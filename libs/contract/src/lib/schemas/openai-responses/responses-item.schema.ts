import { z } from 'zod';
import { unknownTypedObject } from '../anthropic/anthropic-unknown-type.schema';

/**
 * The items of OpenAI's Responses API (`POST /v1/responses`): what `input` is made of and what
 * `output` holds. Known types are checked field by field; every object keeps the fields the
 * relay does not read (`passthrough`), and item types the relay does not model (hosted tool
 * calls, MCP, computer use …) are kept whole by a fallback member, never refused.
 */

const nullish = <T extends z.ZodTypeAny>(schema: T) => schema.nullable().optional();

export const ResponseInputTextSchema = z.object({ type: z.literal('input_text'), text: z.string() }).passthrough();
export const ResponseInputImageSchema = z
  .object({
    type: z.literal('input_image'),
    image_url: nullish(z.string()),
    file_id: nullish(z.string()),
    /** `original` (full resolution) is newer than the first three. */
    detail: z.enum(['auto', 'low', 'high', 'original']).optional(),
  })
  .passthrough();
export const ResponseInputFileSchema = z
  .object({
    type: z.literal('input_file'),
    file_data: z.string().optional(),
    file_id: nullish(z.string()),
    file_url: z.string().optional(),
    filename: z.string().optional(),
  })
  .passthrough();

/** `output_text` as it comes back in an assistant message (and as an input when replayed). */
export const ResponseOutputTextSchema = z
  .object({
    type: z.literal('output_text'),
    text: z.string(),
    annotations: z.array(z.object({ type: z.string() }).passthrough()).optional(),
    logprobs: z.array(z.unknown()).optional(),
  })
  .passthrough();
export const ResponseRefusalSchema = z.object({ type: z.literal('refusal'), refusal: z.string() }).passthrough();

const KnownInputContentSchema = z.discriminatedUnion('type', [
  ResponseInputTextSchema,
  ResponseInputImageSchema,
  ResponseInputFileSchema,
  ResponseOutputTextSchema,
  ResponseRefusalSchema,
]);
export const ResponseInputContentSchema = z.union([KnownInputContentSchema, unknownTypedObject(KnownInputContentSchema.optionsMap.keys())]);
export type ResponseInputContent = z.infer<typeof ResponseInputContentSchema>;

export const ResponseMessageRoleSchema = z.enum(['user', 'assistant', 'system', 'developer']);

/**
 * A message item. `type` may be left out (OpenAI's "easy input message": `{role, content}`);
 * `content` is a string or a list of parts.
 */
export const ResponseInputMessageSchema = z
  .object({
    type: z.literal('message').optional(),
    id: z.string().optional(),
    role: ResponseMessageRoleSchema,
    content: z.union([z.string(), z.array(ResponseInputContentSchema)]),
    status: nullish(z.string()),
  })
  .passthrough();
export type ResponseInputMessage = z.infer<typeof ResponseInputMessageSchema>;

export const ResponseFunctionCallSchema = z
  .object({
    type: z.literal('function_call'),
    id: z.string().optional(),
    call_id: z.string().min(1),
    name: z.string().min(1),
    arguments: z.string(),
    status: nullish(z.enum(['in_progress', 'completed', 'incomplete'])),
  })
  .passthrough();
export type ResponseFunctionCall = z.infer<typeof ResponseFunctionCallSchema>;

export const ResponseFunctionCallOutputSchema = z
  .object({
    type: z.literal('function_call_output'),
    id: nullish(z.string()),
    call_id: z.string().min(1),
    /** Text, or (newer) a list of input parts. */
    output: z.union([z.string(), z.array(ResponseInputContentSchema)]),
    status: nullish(z.string()),
  })
  .passthrough();
export type ResponseFunctionCallOutput = z.infer<typeof ResponseFunctionCallOutputSchema>;

export const ResponseReasoningSchema = z
  .object({
    type: z.literal('reasoning'),
    id: z.string().optional(),
    summary: z.array(z.object({ type: z.literal('summary_text'), text: z.string() }).passthrough()).default([]),
    content: nullish(z.array(z.object({ type: z.string(), text: z.string() }).passthrough())),
    encrypted_content: nullish(z.string()),
    status: nullish(z.string()),
  })
  .passthrough();
export type ResponseReasoning = z.infer<typeof ResponseReasoningSchema>;

export const ResponseItemReferenceSchema = z
  .object({ type: z.literal('item_reference'), id: z.string().min(1) })
  .passthrough();

/**
 * Keyed by `type`, a missing `type` meaning a message: so an item is checked only against the
 * schema its `type` names, and a 400 names the field that is wrong (`input[2].call_id`), not a
 * field of the message schema it was never meant to be. (OpenAI's schema also reads `{id}` alone
 * as an item reference; here it is a message without role, refused: no SDK sends it so.)
 */
const KnownInputItemSchema = z.discriminatedUnion('type', [
  ResponseInputMessageSchema,
  ResponseFunctionCallSchema,
  ResponseFunctionCallOutputSchema,
  ResponseReasoningSchema,
  ResponseItemReferenceSchema,
]);

/** One element of `input`: a message (typed or not), a call, its output, reasoning, or another item kept as sent. */
export const ResponseInputItemSchema = z.union([KnownInputItemSchema, unknownTypedObject(KnownInputItemSchema.optionsMap.keys())]);
export type ResponseInputItem = z.infer<typeof ResponseInputItemSchema>;

/** An assistant message in `output`: always typed, with an id and a status. */
export const ResponseOutputMessageSchema = z
  .object({
    type: z.literal('message'),
    id: z.string(),
    role: z.literal('assistant'),
    status: z.enum(['in_progress', 'completed', 'incomplete']),
    content: z.array(z.union([ResponseOutputTextSchema, ResponseRefusalSchema])),
  })
  .passthrough();
export type ResponseOutputMessage = z.infer<typeof ResponseOutputMessageSchema>;

/** A source a web search used: `{type: 'url', url}` (OpenAI also names APIs it asked, `{type: 'api', name}`). */
export const ResponseWebSearchSourceSchema = z.object({ type: z.string(), url: z.string().optional() }).passthrough();

/**
 * What a web search call did: `search` (its `query`, deprecated for `queries`, and the `sources`
 * when `include` asks for them), `open_page` or `find_in_page` — all kept as sent.
 */
export const ResponseWebSearchActionSchema = z
  .object({
    type: z.string(),
    query: z.string().optional(),
    queries: z.array(z.string()).optional(),
    sources: z.array(ResponseWebSearchSourceSchema).optional(),
  })
  .passthrough();

/**
 * A hosted web search the model ran (`web_search_call`): OpenAI's own, passed through, or the one
 * the relay runs for a bridged request. `action` is missing from items made before mid-2025.
 */
export const ResponseWebSearchCallSchema = z
  .object({
    type: z.literal('web_search_call'),
    id: z.string(),
    status: z.enum(['in_progress', 'searching', 'completed', 'failed']),
    action: ResponseWebSearchActionSchema.optional(),
  })
  .passthrough();
export type ResponseWebSearchCall = z.infer<typeof ResponseWebSearchCallSchema>;

const KnownOutputItemSchema = z.discriminatedUnion('type', [
  ResponseOutputMessageSchema,
  ResponseFunctionCallSchema,
  ResponseReasoningSchema,
  ResponseWebSearchCallSchema,
]);
/** One element of a Response's `output`. */
export const ResponseOutputItemSchema = z.union([KnownOutputItemSchema, unknownTypedObject(KnownOutputItemSchema.optionsMap.keys())]);
export type ResponseOutputItem = z.infer<typeof ResponseOutputItemSchema>;

/** `input_items` of a stored response: every input item as listed back, with an id. */
export const ResponseListedItemSchema = z.object({ id: z.string(), type: z.string() }).passthrough();
