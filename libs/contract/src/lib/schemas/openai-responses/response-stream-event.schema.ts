import { z } from 'zod';
import { isKnownType, unknownTypedObject, withUnknownTypes } from '../anthropic/anthropic-unknown-type.schema';
import { ResponseObjectSchema } from './response.schema';
import { ResponseOutputItemSchema, ResponseOutputTextSchema, ResponseRefusalSchema } from './responses-item.schema';

/**
 * The events of a streamed Response (`POST /v1/responses` with `stream: true`), each sent as
 * `event: <type>` + `data: <json>` where the JSON repeats the `type` and numbers itself with
 * `sequence_number`. Order: response.created, response.in_progress, then per output item
 * output_item.added, its part and delta events, output_item.done; one of response.completed,
 * response.incomplete or response.failed ends the stream (an `error` event may come first).
 *
 * The events the relay reads or writes are checked field by field (web_search_call.* too: the
 * relay writes them for the web searches it runs itself); every other event (the hosted tools'
 * progress: file_search_call.*, code_interpreter_call.*,
 * image_generation_call.*, mcp_*, custom_tool_call_input.*, audio …) is kept as sent, so a
 * native upstream's stream passes through whole.
 */

const index = z.number().int().nonnegative();
const sequenceNumber = z.number().int().nonnegative();
const nullish = <T extends z.ZodTypeAny>(schema: T) => schema.nullable().optional();

function event<Type extends string, Shape extends z.ZodRawShape>(type: Type, shape: Shape) {
  return z.object({ type: z.literal(type), sequence_number: sequenceNumber, ...shape }).passthrough();
}
const itemFields = { item_id: z.string(), output_index: index };
const contentFields = { ...itemFields, content_index: index };
const summaryFields = { ...itemFields, summary_index: index };

/** The Response as it stands: `usage` null until the end; `output` filled in by the final event. */
const lifecycleEvent = <Type extends string>(type: Type) => event(type, { response: ResponseObjectSchema });
export const ResponseCreatedEventSchema = lifecycleEvent('response.created');
export const ResponseInProgressEventSchema = lifecycleEvent('response.in_progress');
export const ResponseQueuedEventSchema = lifecycleEvent('response.queued');
export const ResponseCompletedEventSchema = lifecycleEvent('response.completed');
/** Stopped early; `response.incomplete_details.reason` says why (`max_output_tokens`, `content_filter`). */
export const ResponseIncompleteEventSchema = lifecycleEvent('response.incomplete');
/** Ended by an error after the 200 was sent; `response.error` holds it. */
export const ResponseFailedEventSchema = lifecycleEvent('response.failed');

export const ResponseOutputItemAddedEventSchema = event('response.output_item.added', { output_index: index, item: ResponseOutputItemSchema });
export const ResponseOutputItemDoneEventSchema = event('response.output_item.done', { output_index: index, item: ResponseOutputItemSchema });

const ResponseReasoningTextSchema = z.object({ type: z.literal('reasoning_text'), text: z.string() }).passthrough();
/** A part of a message (`output_text`, `refusal`) or of a reasoning item's `content`; others kept as sent. */
export const ResponseContentPartSchema = withUnknownTypes(
  z.discriminatedUnion('type', [ResponseOutputTextSchema, ResponseRefusalSchema, ResponseReasoningTextSchema]),
);
export const ResponseContentPartAddedEventSchema = event('response.content_part.added', { ...contentFields, part: ResponseContentPartSchema });
export const ResponseContentPartDoneEventSchema = event('response.content_part.done', { ...contentFields, part: ResponseContentPartSchema });

const ResponseLogProbSchema = z.object({ token: z.string(), logprob: z.number() }).passthrough();
/**
 * OpenAI's schema requires `logprobs` (`[]` when not asked for); streams recorded before mid-2025
 * leave it out, so it is optional here. `obfuscation` is random padding against length analysis.
 */
const textFields = { ...contentFields, logprobs: z.array(ResponseLogProbSchema).optional(), obfuscation: z.string().optional() };
export const ResponseOutputTextDeltaEventSchema = event('response.output_text.delta', { ...textFields, delta: z.string() });
export const ResponseOutputTextDoneEventSchema = event('response.output_text.done', { ...textFields, text: z.string() });
export const ResponseOutputTextAnnotationAddedEventSchema = event('response.output_text.annotation.added', {
  ...contentFields,
  annotation_index: index,
  annotation: z.object({ type: z.string() }).passthrough().nullable(),
});

export const ResponseRefusalDeltaEventSchema = event('response.refusal.delta', { ...contentFields, delta: z.string() });
export const ResponseRefusalDoneEventSchema = event('response.refusal.done', { ...contentFields, refusal: z.string() });

/** A fragment of a call's JSON arguments; the fragments concatenated are the `arguments` of `.done`. */
export const ResponseFunctionCallArgumentsDeltaEventSchema = event('response.function_call_arguments.delta', {
  ...itemFields,
  delta: z.string(),
  obfuscation: z.string().optional(),
});
/** `name` is required by OpenAI's schema but missing from OpenAI's own streams: read it from the item. */
export const ResponseFunctionCallArgumentsDoneEventSchema = event('response.function_call_arguments.done', {
  ...itemFields,
  arguments: z.string(),
  name: z.string().optional(),
});

const SummaryTextPartSchema = z.object({ type: z.literal('summary_text'), text: z.string() }).passthrough();
export const ResponseReasoningSummaryPartAddedEventSchema = event('response.reasoning_summary_part.added', {
  ...summaryFields,
  part: SummaryTextPartSchema,
});
export const ResponseReasoningSummaryPartDoneEventSchema = event('response.reasoning_summary_part.done', {
  ...summaryFields,
  part: SummaryTextPartSchema,
});
export const ResponseReasoningSummaryTextDeltaEventSchema = event('response.reasoning_summary_text.delta', {
  ...summaryFields,
  delta: z.string(),
  obfuscation: z.string().optional(),
});
export const ResponseReasoningSummaryTextDoneEventSchema = event('response.reasoning_summary_text.done', { ...summaryFields, text: z.string() });
/** The raw reasoning text, from models that show it (open-weight ones); OpenAI's own send summaries. */
export const ResponseReasoningTextDeltaEventSchema = event('response.reasoning_text.delta', {
  ...contentFields,
  delta: z.string(),
  obfuscation: z.string().optional(),
});
export const ResponseReasoningTextDoneEventSchema = event('response.reasoning_text.done', { ...contentFields, text: z.string() });

/**
 * A hosted web search's progress, between its output_item.added (status in_progress) and its
 * output_item.done: started, searching, completed (a failed search has no event of its own: its
 * item is done with status failed).
 */
export const ResponseWebSearchCallInProgressEventSchema = event('response.web_search_call.in_progress', itemFields);
export const ResponseWebSearchCallSearchingEventSchema = event('response.web_search_call.searching', itemFields);
export const ResponseWebSearchCallCompletedEventSchema = event('response.web_search_call.completed', itemFields);

/**
 * A failure inside the stream, before `response.failed`. OpenAI's schema puts `code`, `message`
 * and `param` on the event; OpenAI's servers send them nested in `error` (with the error `type`).
 * Either form is read (a message is required in one of them); the relay writes both at once,
 * which satisfies the schema and the SDKs that look for `error`.
 */
export const ResponseErrorEventSchema = event('error', {
  code: nullish(z.string()),
  message: z.string().optional(),
  param: nullish(z.string()),
  error: z
    .object({ type: z.string().optional(), code: nullish(z.string()), message: z.string(), param: nullish(z.string()) })
    .passthrough()
    .optional(),
});
export type ResponseErrorEvent = z.infer<typeof ResponseErrorEventSchema>;

/** The events modelled field by field. */
export const KnownResponseStreamEventSchema = z.discriminatedUnion('type', [
  ResponseCreatedEventSchema,
  ResponseInProgressEventSchema,
  ResponseQueuedEventSchema,
  ResponseCompletedEventSchema,
  ResponseIncompleteEventSchema,
  ResponseFailedEventSchema,
  ResponseOutputItemAddedEventSchema,
  ResponseOutputItemDoneEventSchema,
  ResponseContentPartAddedEventSchema,
  ResponseContentPartDoneEventSchema,
  ResponseOutputTextDeltaEventSchema,
  ResponseOutputTextDoneEventSchema,
  ResponseOutputTextAnnotationAddedEventSchema,
  ResponseRefusalDeltaEventSchema,
  ResponseRefusalDoneEventSchema,
  ResponseFunctionCallArgumentsDeltaEventSchema,
  ResponseFunctionCallArgumentsDoneEventSchema,
  ResponseReasoningSummaryPartAddedEventSchema,
  ResponseReasoningSummaryPartDoneEventSchema,
  ResponseReasoningSummaryTextDeltaEventSchema,
  ResponseReasoningSummaryTextDoneEventSchema,
  ResponseReasoningTextDeltaEventSchema,
  ResponseReasoningTextDoneEventSchema,
  ResponseWebSearchCallInProgressEventSchema,
  ResponseWebSearchCallSearchingEventSchema,
  ResponseWebSearchCallCompletedEventSchema,
  ResponseErrorEventSchema,
]);
export type KnownResponseStreamEvent = z.infer<typeof KnownResponseStreamEventSchema>;
export type ResponseStreamEventType = KnownResponseStreamEvent['type'];

/** Any other event type, kept whole; it still carries its `sequence_number`. */
const UnknownResponseStreamEventSchema = unknownTypedObject(KnownResponseStreamEventSchema.optionsMap.keys()).extend({
  sequence_number: sequenceNumber,
});

/** Narrows a parsed event to the modelled ones (`event.type === …` cannot, past the kept-unknown member). */
export const isKnownResponseStreamEvent = isKnownType(KnownResponseStreamEventSchema);

/** One event of a Responses stream: a modelled one, or any other kept as sent. */
export const ResponseStreamEventSchema = z
  .union([KnownResponseStreamEventSchema, UnknownResponseStreamEventSchema])
  .superRefine((parsed, ctx) => {
    if (!isKnownResponseStreamEvent(parsed) || parsed.type !== 'error') return;
    if (parsed.message === undefined && parsed.error === undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['message'], message: 'an error event needs a message (or error.message)' });
    }
  });
export type ResponseStreamEvent = z.infer<typeof ResponseStreamEventSchema>;

/** Every modelled event type, which is also the SSE `event:` line of each event. */
export const RESPONSE_STREAM_EVENT_TYPES = [
  'response.created',
  'response.in_progress',
  'response.queued',
  'response.completed',
  'response.incomplete',
  'response.failed',
  'response.output_item.added',
  'response.output_item.done',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.delta',
  'response.output_text.done',
  'response.output_text.annotation.added',
  'response.refusal.delta',
  'response.refusal.done',
  'response.function_call_arguments.delta',
  'response.function_call_arguments.done',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_part.done',
  'response.reasoning_summary_text.delta',
  'response.reasoning_summary_text.done',
  'response.reasoning_text.delta',
  'response.reasoning_text.done',
  'response.web_search_call.in_progress',
  'response.web_search_call.searching',
  'response.web_search_call.completed',
  'error',
] as const satisfies readonly ResponseStreamEventType[];
