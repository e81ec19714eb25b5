import type { ZodError, ZodIssue } from 'zod';
import {
  isKnownResponseStreamEvent,
  KnownResponseStreamEventSchema,
  RESPONSE_STREAM_EVENT_TYPES,
  ResponseStreamEventSchema,
} from './response-stream-event.schema';

/** Every issue, the branches of unions included. */
function flatIssues(error: ZodError): ZodIssue[] {
  return error.issues.flatMap((issue) => (issue.code === 'invalid_union' ? [issue, ...issue.unionErrors.flatMap(flatIssues)] : [issue]));
}

/** Refused, and `path` is among the deepest fields named. */
function expectRejectedAt(event: unknown, path: (string | number)[]): void {
  const result = ResponseStreamEventSchema.safeParse(event);
  expect(result.success).toBe(false);
  const issues = flatIssues(result.error!);
  expect(issues.map((issue) => issue.path)).toContainEqual(path);
  expect(Math.max(...issues.map((issue) => issue.path.length))).toBe(path.length);
}
const response = {
  id: 'resp_1',
  object: 'response',
  created_at: 1_741_476_777,
  status: 'in_progress',
  model: 'gpt-4o',
  output: [],
  usage: null,
};
const text = { item_id: 'msg_1', output_index: 0, content_index: 0 };
const summary = { item_id: 'rs_1', output_index: 0, summary_index: 0 };

describe('ResponseStreamEventSchema', () => {
  it('RESPONSE_STREAM_EVENT_TYPES lists exactly the events modelled field by field', () => {
    expect([...KnownResponseStreamEventSchema.optionsMap.keys()].sort()).toEqual([...RESPONSE_STREAM_EVENT_TYPES].sort());
  });

  it.each([
    ['response.queued', { type: 'response.queued', sequence_number: 0, response: { ...response, status: 'queued' } }],
    [
      'response.incomplete',
      {
        type: 'response.incomplete',
        sequence_number: 9,
        response: { ...response, status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
      },
    ],
    ['a refusal delta', { type: 'response.refusal.delta', sequence_number: 3, ...text, delta: 'I can' }],
    ['a refusal done', { type: 'response.refusal.done', sequence_number: 4, ...text, refusal: "I can't help with that." }],
    ['a refusal part', { type: 'response.content_part.added', sequence_number: 2, ...text, part: { type: 'refusal', refusal: '' } }],
    [
      'an output_text delta without logprobs (streams before mid-2025)',
      { type: 'response.output_text.delta', sequence_number: 5, ...text, delta: 'Hi' },
    ],
    [
      'an annotation',
      {
        type: 'response.output_text.annotation.added',
        sequence_number: 6,
        ...text,
        annotation_index: 0,
        annotation: { type: 'url_citation', url: 'https://example.com', start_index: 0, end_index: 4, title: 'Example' },
      },
    ],
    [
      'raw reasoning text',
      { type: 'response.reasoning_text.delta', sequence_number: 7, item_id: 'rs_1', output_index: 0, content_index: 0, delta: 'so' },
    ],
    [
      'a reasoning_text part',
      { type: 'response.content_part.done', sequence_number: 8, ...text, part: { type: 'reasoning_text', text: 'so' } },
    ],
    ['a summary text delta', { type: 'response.reasoning_summary_text.delta', sequence_number: 9, ...summary, delta: '**Plan**' }],
    [
      'function_call_arguments.done without name, as OpenAI sends it',
      { type: 'response.function_call_arguments.done', sequence_number: 9, item_id: 'fc_1', output_index: 1, arguments: '{}' },
    ],
    ['the error event as OpenAI documents it', { type: 'error', sequence_number: 1, code: 'server_error', message: 'Boom', param: null }],
    [
      'the error event as OpenAI sends it',
      { type: 'error', sequence_number: 2, error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'Quota', param: null } },
    ],
    [
      'a web_search_call item',
      {
        type: 'response.output_item.added',
        sequence_number: 2,
        output_index: 0,
        item: { type: 'web_search_call', id: 'ws_1', status: 'in_progress', action: { type: 'search', query: 'weather' } },
      },
    ],
    [
      'a web_search_call item that opened a page',
      {
        type: 'response.output_item.done',
        sequence_number: 3,
        output_index: 0,
        item: { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'open_page', url: 'https://example.com' } },
      },
    ],
    ['the web search progress events', { type: 'response.web_search_call.searching', sequence_number: 3, output_index: 0, item_id: 'ws_1' }],
    [
      'an output item the relay does not model (file_search_call)',
      {
        type: 'response.output_item.added',
        sequence_number: 2,
        output_index: 0,
        item: { type: 'file_search_call', id: 'fs_1', status: 'in_progress', queries: ['weather'] },
      },
    ],
  ])('accepts %s, unchanged', (_name, event) => {
    expect(ResponseStreamEventSchema.parse(event)).toEqual(event);
  });

  it.each([
    ['response.file_search_call.in_progress', { output_index: 0, item_id: 'fs_1' }],
    ['response.code_interpreter_call_code.delta', { output_index: 0, item_id: 'ci_1', delta: 'print(' }],
    ['response.code_interpreter_call.interpreting', { output_index: 0, item_id: 'ci_1' }],
    [
      'response.image_generation_call.partial_image',
      { output_index: 0, item_id: 'ig_1', partial_image_index: 0, partial_image_b64: 'iVBO' },
    ],
    ['response.mcp_call_arguments.delta', { output_index: 0, item_id: 'mcp_1', delta: '{"q"' }],
    ['response.mcp_list_tools.completed', { output_index: 0, item_id: 'mcpl_1' }],
    ['response.custom_tool_call_input.delta', { output_index: 0, item_id: 'ctc_1', delta: 'SELECT' }],
    ['response.audio.transcript.done', { response_id: 'resp_1' }],
  ])('keeps %s, which it does not model, as sent', (type, fields) => {
    const event = { type, sequence_number: 11, ...fields };
    const parsed = ResponseStreamEventSchema.parse(event);
    expect(parsed).toEqual(event);
    expect(isKnownResponseStreamEvent(parsed)).toBe(false);
  });

  it('isKnownResponseStreamEvent: true for a modelled event', () => {
    const parsed = ResponseStreamEventSchema.parse({ type: 'response.output_text.done', sequence_number: 5, ...text, text: 'Hi' });
    expect(isKnownResponseStreamEvent(parsed)).toBe(true);
    // The guard narrows past the kept-unknown member, so `text` is typed here.
    expect(isKnownResponseStreamEvent(parsed) && parsed.type === 'response.output_text.done' ? parsed.text : undefined).toBe('Hi');
  });

  it.each([
    ['an event without sequence_number', { type: 'response.output_text.delta', ...text, delta: 'Hi' }, ['sequence_number']],
    [
      'an unknown event without sequence_number',
      { type: 'response.file_search_call.completed', output_index: 0, item_id: 'fs_1' },
      ['sequence_number'],
    ],
    ['a negative sequence_number', { type: 'response.refusal.delta', sequence_number: -1, ...text, delta: 'x' }, ['sequence_number']],
    [
      'a fractional output_index',
      { type: 'response.output_text.delta', sequence_number: 1, ...text, output_index: 0.5, delta: 'x' },
      ['output_index'],
    ],
    ['an output_text delta without delta', { type: 'response.output_text.delta', sequence_number: 1, ...text }, ['delta']],
    ['response.completed without response', { type: 'response.completed', sequence_number: 8 }, ['response']],
    [
      'a response with an unknown status',
      { type: 'response.completed', sequence_number: 8, response: { ...response, status: 'done' } },
      ['response', 'status'],
    ],
    [
      'a summary part that is not summary_text',
      { type: 'response.reasoning_summary_part.added', sequence_number: 3, ...summary, part: { type: 'text', text: '' } },
      ['part', 'type'],
    ],
    [
      'function_call_arguments.delta without item_id',
      { type: 'response.function_call_arguments.delta', sequence_number: 3, output_index: 0, delta: '{' },
      ['item_id'],
    ],
    [
      'web_search_call.searching without item_id',
      { type: 'response.web_search_call.searching', sequence_number: 3, output_index: 0 },
      ['item_id'],
    ],
    [
      'a web_search_call item with a status OpenAI has not',
      { type: 'response.output_item.done', sequence_number: 3, output_index: 0, item: { type: 'web_search_call', id: 'ws_1', status: 'done' } },
      ['item', 'status'],
    ],
    ['an error event without any message', { type: 'error', sequence_number: 1, code: 'server_error', param: null }, ['message']],
    ['a nested error without its message', { type: 'error', sequence_number: 1, error: { code: 'server_error' } }, ['error', 'message']],
    ['an event without a type', { sequence_number: 1, delta: 'x' }, ['type']],
  ])('rejects %s at the field', (_name, event, path) => {
    expectRejectedAt(event, path);
  });
});
