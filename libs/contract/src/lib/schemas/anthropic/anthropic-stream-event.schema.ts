import { z } from 'zod';
import { AnthropicContentBlockSchema } from './anthropic-content-block.schema';
import { AnthropicErrorObjectSchema } from './anthropic-error.schema';
import { AnthropicMessageSchema, AnthropicStopReasonSchema } from './anthropic-message.schema';
import { AnthropicDeltaUsageSchema } from './anthropic-usage.schema';

/**
 * The events of a streamed Message, each sent as `event: <type>` + `data: <json>` where the JSON
 * repeats the `type`. Order: message_start, per block (content_block_start, deltas,
 * content_block_stop), message_delta, message_stop; `ping` anywhere; `error` ends a failed stream.
 */

const index = z.number().int().nonnegative();

export const AnthropicContentBlockDeltaSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text_delta'), text: z.string() }).passthrough(),
  /** A fragment of a tool call's JSON input; the fragments concatenated parse as the input. */
  z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }).passthrough(),
  z.object({ type: z.literal('thinking_delta'), thinking: z.string() }).passthrough(),
  /** The thinking block's signature, sent just before its `content_block_stop`. */
  z.object({ type: z.literal('signature_delta'), signature: z.string() }).passthrough(),
  z.object({ type: z.literal('citations_delta'), citation: z.object({ type: z.string() }).passthrough() }).passthrough(),
]);
export type AnthropicContentBlockDelta = z.infer<typeof AnthropicContentBlockDeltaSchema>;

export const AnthropicMessageStartEventSchema = z
  .object({ type: z.literal('message_start'), message: AnthropicMessageSchema })
  .passthrough();
export const AnthropicContentBlockStartEventSchema = z
  .object({ type: z.literal('content_block_start'), index, content_block: AnthropicContentBlockSchema })
  .passthrough();
export const AnthropicContentBlockDeltaEventSchema = z
  .object({ type: z.literal('content_block_delta'), index, delta: AnthropicContentBlockDeltaSchema })
  .passthrough();
export const AnthropicContentBlockStopEventSchema = z
  .object({ type: z.literal('content_block_stop'), index })
  .passthrough();
export const AnthropicMessageDeltaEventSchema = z
  .object({
    type: z.literal('message_delta'),
    delta: z
      .object({ stop_reason: AnthropicStopReasonSchema.nullable(), stop_sequence: z.string().nullable().optional() })
      .passthrough(),
    usage: AnthropicDeltaUsageSchema,
  })
  .passthrough();
export const AnthropicMessageStopEventSchema = z.object({ type: z.literal('message_stop') }).passthrough();
export const AnthropicPingEventSchema = z.object({ type: z.literal('ping') }).passthrough();
/** A failure after the 200 was sent (e.g. `overloaded_error`): the stream ends with it. */
export const AnthropicErrorEventSchema = z
  .object({ type: z.literal('error'), error: AnthropicErrorObjectSchema })
  .passthrough();

export const AnthropicStreamEventSchema = z.discriminatedUnion('type', [
  AnthropicMessageStartEventSchema,
  AnthropicContentBlockStartEventSchema,
  AnthropicContentBlockDeltaEventSchema,
  AnthropicContentBlockStopEventSchema,
  AnthropicMessageDeltaEventSchema,
  AnthropicMessageStopEventSchema,
  AnthropicPingEventSchema,
  AnthropicErrorEventSchema,
]);
export type AnthropicStreamEvent = z.infer<typeof AnthropicStreamEventSchema>;
export type AnthropicStreamEventType = AnthropicStreamEvent['type'];

/** Every event name, which is also the SSE `event:` line of each event. */
export const ANTHROPIC_STREAM_EVENT_TYPES = [
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
  'error',
] as const satisfies readonly AnthropicStreamEventType[];
