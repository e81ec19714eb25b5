/**
 * Test-only: what makes a Responses stream valid, checked event by event against OpenAI's own
 * OpenAPI description and the lifecycle rules its clients rely on, and the official SDK's own
 * accumulator (ResponseStream) to prove a client reassembles it.
 */
import { ReadableStream } from 'node:stream/web';
import { ResponseObjectSchema, type ResponseObject } from '@chat-relay/contract';
import { ResponseStream } from 'openai/lib/responses/ResponseStream';
import type { StreamStep } from '../../hub/upstream-adapter';
import { expectOpenAiValid } from '../../gemini/testing/expect-openai-valid';

/**
 * An item as the events carry it. Each field is typed as present, for reading: the spec
 * validation checked which item types have which fields.
 */
export interface EventItem {
  id: string;
  type: string;
  status: string;
  call_id: string;
  name: string;
  arguments: string;
  content: Array<{ type: string; text?: string; refusal?: string }>;
  summary: Array<{ type: string; text: string }>;
}

/** A parsed event: every field any event type has, typed as present, for reading (as EventItem). */
export interface ResponsesEvent {
  type: string;
  sequence_number: number;
  response: ResponseObject;
  item: EventItem;
  item_id?: string;
  output_index: number;
  content_index: number;
  summary_index: number;
  part: { type: string; text?: string; refusal?: string };
  delta: string;
  text?: string;
  refusal?: string;
  arguments: string;
  name: string;
  logprobs: unknown[];
}

/** The component of the OpenAI description each event type must match. */
const EVENT_SCHEMAS: Readonly<Record<string, string>> = {
  'response.created': 'ResponseCreatedEvent',
  'response.in_progress': 'ResponseInProgressEvent',
  'response.completed': 'ResponseCompletedEvent',
  'response.incomplete': 'ResponseIncompleteEvent',
  'response.failed': 'ResponseFailedEvent',
  'response.output_item.added': 'ResponseOutputItemAddedEvent',
  'response.output_item.done': 'ResponseOutputItemDoneEvent',
  'response.content_part.added': 'ResponseContentPartAddedEvent',
  'response.content_part.done': 'ResponseContentPartDoneEvent',
  'response.output_text.delta': 'ResponseTextDeltaEvent',
  'response.output_text.done': 'ResponseTextDoneEvent',
  'response.refusal.delta': 'ResponseRefusalDeltaEvent',
  'response.refusal.done': 'ResponseRefusalDoneEvent',
  'response.function_call_arguments.delta': 'ResponseFunctionCallArgumentsDeltaEvent',
  'response.function_call_arguments.done': 'ResponseFunctionCallArgumentsDoneEvent',
  'response.custom_tool_call_input.delta': 'ResponseCustomToolCallInputDeltaEvent',
  'response.custom_tool_call_input.done': 'ResponseCustomToolCallInputDoneEvent',
  'response.reasoning_summary_part.added': 'ResponseReasoningSummaryPartAddedEvent',
  'response.reasoning_summary_part.done': 'ResponseReasoningSummaryPartDoneEvent',
  'response.reasoning_summary_text.delta': 'ResponseReasoningSummaryTextDeltaEvent',
  'response.reasoning_summary_text.done': 'ResponseReasoningSummaryTextDoneEvent',
  'response.web_search_call.in_progress': 'ResponseWebSearchCallInProgressEvent',
  'response.web_search_call.searching': 'ResponseWebSearchCallSearchingEvent',
  'response.web_search_call.completed': 'ResponseWebSearchCallCompletedEvent',
};

/**
 * Every chunk step parsed; its SSE event name must be its type, and it must be valid against both
 * its own component and the ResponseStreamEvent union of the official description (error steps
 * are not events: they are returned apart).
 */
export function eventsOf(steps: readonly StreamStep[], { spec = true } = {}): ResponsesEvent[] {
  return steps.flatMap((step) => {
    if (step.kind !== 'chunk') return [];
    const event = JSON.parse(step.json) as ResponsesEvent;
    expect(step.event).toBe(event.type);
    if (spec) {
      const schema = EVENT_SCHEMAS[event.type];
      expect({ type: event.type, schema }).toEqual({ type: event.type, schema: expect.any(String) });
      expectOpenAiValid(schema ?? 'ResponseStreamEvent', event);
      expectOpenAiValid('ResponseStreamEvent', event);
    }
    return [event];
  });
}

export interface StreamSummary {
  /** Text deltas, concatenated over every message item. */
  text: string;
  refusal: string;
  reasoning: string;
  calls: Array<{ call_id: string; name: string; arguments: string }>;
  /** The terminal event's Response. */
  response: ResponseObject;
}

const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

interface OpenItem {
  id: string;
  type: string;
  done: boolean;
  /** Concatenated deltas per content / summary index; arguments for calls. */
  parts: string[];
  partOpen: boolean[];
  args: string;
}

/**
 * Asserts the rules of a Responses stream and returns what it says: response.created then
 * response.in_progress first; sequence numbers 0, 1, 2 …; one response id; exactly one terminal
 * event, last; each item added at the next output index before any event of its own, its
 * deltas only while it is open and into an open part, every done event repeating exactly what
 * the deltas built, every item done before the terminal event (unless the response failed); the
 * final Response valid against the official description and the contract, its output the items
 * as done, in output order.
 */
export function expectValidResponsesStream(events: readonly ResponsesEvent[]): StreamSummary {
  expect(events.slice(0, 2).map((event) => event.type)).toEqual(['response.created', 'response.in_progress']);
  expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
  const lifecycle = events.filter((event) => event.type.startsWith('response.') && event.response);
  expect(new Set(lifecycle.map((event) => event.response.id)).size).toBe(1);
  expect(lifecycle.slice(0, 2).map((event) => [event.response.status, event.response.output])).toEqual([
    ['in_progress', []],
    ['in_progress', []],
  ]);
  const terminal = events.filter((event) => TERMINAL.has(event.type));
  expect(terminal).toHaveLength(1);
  expect(events.at(-1)?.type).toBe(terminal[0]?.type);
  const final = terminal[0]?.response;
  if (!final) throw new Error('no terminal event');
  expectOpenAiValid('Response', final);
  expect(ResponseObjectSchema.safeParse(final).error?.issues ?? []).toEqual([]);
  expect(final.status).toBe(terminal[0]?.type.slice('response.'.length));

  const items: OpenItem[] = [];
  const doneItems: unknown[] = [];
  const summary: StreamSummary = { text: '', refusal: '', reasoning: '', calls: [], response: final };
  const openItem = (event: ResponsesEvent): OpenItem => {
    const item = items[event.output_index];
    expect({ event: event.type, added: item !== undefined, done: item?.done }).toEqual({ event: event.type, added: true, done: false });
    if (event.item_id !== undefined) expect(event.item_id).toBe(item?.id);
    return item as OpenItem;
  };
  const partOf = (item: OpenItem, index: number, event: ResponsesEvent) => {
    expect({ event: event.type, open: item.partOpen[index] }).toEqual({ event: event.type, open: true });
    return item.parts[index] ?? '';
  };

  for (const event of events) {
    switch (event.type) {
      case 'response.output_item.added': {
        expect(event.output_index).toBe(items.length);
        expect(items.some((item) => item.id === event.item.id)).toBe(false);
        if (event.item.type === 'function_call') expect([event.item.arguments, event.item.status]).toEqual(['', 'in_progress']);
        if (event.item.type === 'message') expect(event.item.content).toEqual([]);
        if (event.item.type === 'web_search_call') expect(event.item.status).toBe('in_progress');
        items.push({ id: event.item.id, type: event.item.type, done: false, parts: [], partOpen: [], args: '' });
        break;
      }
      case 'response.content_part.added':
      case 'response.reasoning_summary_part.added': {
        const item = openItem(event);
        const index = event.content_index ?? event.summary_index;
        expect(index).toBe(item.parts.length);
        expect(item.partOpen.some((open) => open)).toBe(false);
        expect(event.part.text ?? event.part.refusal).toBe('');
        item.parts.push('');
        item.partOpen.push(true);
        break;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta':
      case 'response.reasoning_summary_text.delta': {
        const item = openItem(event);
        const index = event.content_index ?? event.summary_index;
        item.parts[index] = partOf(item, index, event) + event.delta;
        if (event.type === 'response.output_text.delta') summary.text += event.delta;
        if (event.type === 'response.refusal.delta') summary.refusal += event.delta;
        if (event.type === 'response.reasoning_summary_text.delta') summary.reasoning += event.delta;
        break;
      }
      case 'response.output_text.done':
      case 'response.refusal.done':
      case 'response.reasoning_summary_text.done': {
        const item = openItem(event);
        const index = event.content_index ?? event.summary_index;
        expect(event.text ?? event.refusal).toBe(partOf(item, index, event));
        break;
      }
      case 'response.content_part.done':
      case 'response.reasoning_summary_part.done': {
        const item = openItem(event);
        const index = event.content_index ?? event.summary_index;
        expect(event.part.text ?? event.part.refusal).toBe(partOf(item, index, event));
        item.partOpen[index] = false;
        break;
      }
      case 'response.function_call_arguments.delta':
        openItem(event).args += event.delta;
        break;
      case 'response.web_search_call.in_progress':
      case 'response.web_search_call.searching':
      case 'response.web_search_call.completed':
        expect(openItem(event).type).toBe('web_search_call');
        break;
      case 'response.function_call_arguments.done': {
        const item = openItem(event);
        expect(event.arguments).toBe(item.args);
        break;
      }
      case 'response.output_item.done': {
        const item = openItem(event);
        expect(item.partOpen.some((open) => open)).toBe(false);
        expect(event.item.id).toBe(item.id);
        if (event.item.type === 'message') expect(event.item.content.map((part) => part.text ?? part.refusal)).toEqual(item.parts);
        if (event.item.type === 'reasoning') expect(event.item.summary.map((part) => part.text)).toEqual(item.parts);
        if (event.item.type === 'function_call') {
          expect(event.item.arguments).toBe(item.args);
          summary.calls.push({ call_id: event.item.call_id, name: event.item.name, arguments: event.item.arguments });
        }
        item.done = true;
        doneItems[event.output_index] = event.item;
        break;
      }
      default:
        expect(lifecycle).toContain(event);
    }
  }
  if (final.status !== 'failed') {
    expect(items.every((item) => item.done)).toBe(true);
    expect(final.output).toEqual(doneItems);
  }
  return summary;
}

/** The events as the SDK reads them (one JSON per line), through its ResponseStream accumulator. */
export function sdkFinalResponse(events: readonly ResponsesEvent[]) {
  const bytes = new TextEncoder().encode(events.map((event) => `${JSON.stringify(event)}\n`).join(''));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return ResponseStream.fromReadableStream(stream as unknown as Parameters<typeof ResponseStream.fromReadableStream>[0]).finalResponse();
}
