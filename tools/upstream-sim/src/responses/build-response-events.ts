import { createHash } from 'node:crypto';
import { argumentsPieceLength } from '../build-chat-completion';
import { splitIntoPieces, splitIntoStreamTokens } from '../tokens';
import { hostedCallEvents } from './hosted-tools';
import type { CustomToolCallItem, FunctionCallItem, OutputItem, OutputMessageItem, ResponseBody, ResponseStreamEvent } from './responses-wire';

/**
 * OpenAI pads delta events with random characters (`obfuscation`) so their sizes do not reveal
 * the tokens; the simulator writes a deterministic padding, unless `include_obfuscation: false`.
 */
function obfuscation(delta: string, enabled: boolean): { obfuscation?: string } {
  if (!enabled) return {};
  const padding = createHash('sha256').update(delta).digest('base64').replace(/[^a-zA-Z0-9]/g, '');
  return { obfuscation: padding.slice(0, Math.max(2, 16 - delta.length)) };
}

function messageEvents(item: OutputMessageItem, outputIndex: number, withObfuscation: boolean): ResponseStreamEvent[] {
  const text = item.content[0]?.text ?? '';
  const where = { item_id: item.id, output_index: outputIndex, content_index: 0 };
  const emptyPart = { type: 'output_text', annotations: [], logprobs: [], text: '' };
  return [
    { type: 'response.output_item.added', item: { ...item, status: 'in_progress', content: [] }, output_index: outputIndex },
    { type: 'response.content_part.added', ...where, part: emptyPart },
    ...splitIntoStreamTokens(text).map((delta) => ({
      type: 'response.output_text.delta',
      ...where,
      delta,
      logprobs: [],
      ...obfuscation(delta, withObfuscation),
    })),
    { type: 'response.output_text.done', ...where, logprobs: [], text },
    { type: 'response.content_part.done', ...where, part: { ...emptyPart, text } },
    { type: 'response.output_item.done', item, output_index: outputIndex },
  ];
}

function callEvents(item: FunctionCallItem, outputIndex: number, withObfuscation: boolean): ResponseStreamEvent[] {
  const where = { item_id: item.id, output_index: outputIndex };
  return [
    { type: 'response.output_item.added', item: { ...item, status: 'in_progress', arguments: '' }, output_index: outputIndex },
    ...splitIntoPieces(item.arguments, argumentsPieceLength).map((delta) => ({
      type: 'response.function_call_arguments.delta',
      ...where,
      delta,
      ...obfuscation(delta, withObfuscation),
    })),
    { type: 'response.function_call_arguments.done', ...where, name: item.name, arguments: item.arguments },
    { type: 'response.output_item.done', item, output_index: outputIndex },
  ];
}

/**
 * A custom tool call streams its text as `response.custom_tool_call_input.delta` events, then
 * `response.custom_tool_call_input.done` with the whole input (OpenAPI
 * ResponseCustomToolCallInputDeltaEvent / ResponseCustomToolCallInputDoneEvent), between the
 * item's `output_item.added` (empty input) and `output_item.done`.
 */
function customCallEvents(item: CustomToolCallItem, outputIndex: number, withObfuscation: boolean): ResponseStreamEvent[] {
  const where = { item_id: item.id, output_index: outputIndex };
  return [
    { type: 'response.output_item.added', item: { ...item, status: 'in_progress', input: '' }, output_index: outputIndex },
    ...splitIntoPieces(item.input, argumentsPieceLength).map((delta) => ({
      type: 'response.custom_tool_call_input.delta',
      ...where,
      delta,
      ...obfuscation(delta, withObfuscation),
    })),
    { type: 'response.custom_tool_call_input.done', ...where, input: item.input },
    { type: 'response.output_item.done', item, output_index: outputIndex },
  ];
}

/**
 * The events of a streamed response, as OpenAI sends them: `response.created` and
 * `response.in_progress` with an empty output; per message item `output_item.added`,
 * `content_part.added`, one `output_text.delta` per word token, `output_text.done`,
 * `content_part.done`, `output_item.done`; per call `output_item.added`, argument deltas,
 * `function_call_arguments.done`, `output_item.done` (a custom call: input deltas and
 * `custom_tool_call_input.done`); per hosted call `output_item.added`, its
 * progress events (`response.web_search_call.searching` …), `output_item.done`; then `response.completed` — or
 * `response.incomplete` when `max_output_tokens` cut the answer. No `[DONE]`.
 */
export function buildResponseEvents(
  started: ResponseBody,
  finished: ResponseBody,
  withObfuscation: boolean,
): ResponseStreamEvent[] {
  const itemEvents = finished.output.flatMap((item: OutputItem, index) => {
    if (item.type === 'message') return messageEvents(item, index, withObfuscation);
    if (item.type === 'function_call') return callEvents(item, index, withObfuscation);
    if (item.type === 'custom_tool_call') return customCallEvents(item, index, withObfuscation);
    return hostedCallEvents(item, index);
  });
  const terminal = finished.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  return [
    { type: 'response.created', response: started },
    { type: 'response.in_progress', response: started },
    ...itemEvents,
    { type: terminal, response: finished },
  ];
}

/** One SSE frame: `event: <type>` and the event's JSON with its `sequence_number`. */
export function frameOf(event: ResponseStreamEvent, sequenceNumber: number): string {
  return `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequenceNumber })}\n\n`;
}
