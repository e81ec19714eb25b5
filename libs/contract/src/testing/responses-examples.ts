/**
 * Test-only: Responses API values as the relay should send them — complete per OpenAI's
 * published schema (test-fixtures/spec) — built from the recorded traffic beside this file.
 * The conformance spec checks every one against both our schemas and OpenAI's; a bridge that
 * builds Responses can compare its output with them.
 *
 * Recorded answers differ from the published schema in three fields, and `asSpecified` is that
 * difference: OpenAI sends `user: null` (schema: a string) and `usage: null` before the end
 * (schema: an object, or absent), and no `input_tokens_details.cache_write_tokens` (now required).
 */
import { recordedReasoningCallResponse, recordedReasoningSummaryResponse, recordedTextResponse } from './recorded-responses-answers';
import { recordedReasoningStreamExcerpt } from './recorded-responses-reasoning-stream';
import { recordedQuotaErrorStream, recordedTextStream, textStreamStart } from './recorded-responses-streams';

type Json = Record<string, unknown>;
interface RecordedUsage {
  input_tokens_details: Json;
}

/** A recorded Response as the published schema wants it (see the header). */
export function asSpecified(response: Json): Json {
  const { user, usage, ...rest } = response;
  const specified: Json = { ...rest };
  if (user !== null && user !== undefined) specified['user'] = user;
  if (usage !== null && usage !== undefined) {
    const recorded = usage as RecordedUsage;
    specified['usage'] = { ...recorded, input_tokens_details: { cache_write_tokens: 0, ...recorded.input_tokens_details } };
  }
  return specified;
}

/** `values[index]`, which the recordings are known to hold: a missing one is a broken example. */
function nth(values: readonly unknown[], index: number): Json {
  const value = values[index];
  if (value === undefined) throw new Error(`no element ${index} in a recorded example`);
  return value as Json;
}
const lifecycle = (type: string, sequence_number: number, response: Json) => ({ type, sequence_number, response: asSpecified(response) });
const recordedResponseOf = (event: Json) => event['response'] as Json;

/** A message item, recorded. */
export const textMessage = nth(recordedTextResponse.output, 0);
/** A function_call item, recorded. */
export const functionCallItem = nth(recordedReasoningCallResponse.output, 1);
/** A reasoning item with a summary and encrypted_content, recorded. */
export const reasoningItem = nth(recordedReasoningSummaryResponse.output, 0);

export const textResponse = asSpecified(recordedTextResponse);
export const reasoningSummaryResponse = asSpecified(recordedReasoningSummaryResponse);
export const reasoningCallResponse = asSpecified(recordedReasoningCallResponse);
/** Composed from recorded items: text and a call in one turn, as Chat Completions bridges produce. */
export const textAndCallResponse = { ...textResponse, output: [textMessage, functionCallItem] };
/** Composed: cut short by max_output_tokens, the message left incomplete. */
export const incompleteResponse = {
  ...textResponse,
  status: 'incomplete',
  incomplete_details: { reason: 'max_output_tokens' },
  max_output_tokens: 16,
  output: [{ ...textMessage, status: 'incomplete' }],
};
/**
 * The recorded failure (insufficient quota) with a code from OpenAI's published enum, which lacks
 * the `insufficient_quota` OpenAI sends: a relay passing that code on is outside the schema.
 */
export const failedResponse = {
  ...asSpecified(recordedResponseOf(nth(recordedQuotaErrorStream, 3))),
  error: { code: 'server_error', message: 'The model failed to answer.' },
};

const messageId = textMessage['id'] as string;
const text = { item_id: messageId, output_index: 0, content_index: 0 };
/** The recorded text stream's event numbered `at`. */
const textEvent = (at: number) => nth(recordedTextStream, at);
/** The recorded reasoning stream's first event of `type`. */
const reasoningEvent = (type: string) =>
  nth(recordedReasoningStreamExcerpt, recordedReasoningStreamExcerpt.findIndex((event) => event.type === type));

const webSearch = { item_id: 'ws_1', output_index: 0 };
/** A web search call as OpenAI documents it (sources with `include: ['web_search_call.action.sources']`). */
export const webSearchCall = (status: 'in_progress' | 'completed' | 'failed'): Json => ({
  type: 'web_search_call',
  id: 'ws_1',
  status,
  action: { type: 'search', query: 'weather in Paris', queries: ['weather in Paris'], sources: [{ type: 'url', url: 'https://weather.example/paris' }] },
});

/** One example of every modelled stream event type, as the relay should send it. */
export const streamEventExamples: [string, Json][] = [
  ['response.created', lifecycle('response.created', 0, textStreamStart)],
  ['response.in_progress', lifecycle('response.in_progress', 1, textStreamStart)],
  ['response.queued', lifecycle('response.queued', 1, { ...textStreamStart, status: 'queued', background: true })],
  ['response.completed', lifecycle('response.completed', 8, recordedResponseOf(textEvent(8)))],
  ['response.incomplete', lifecycle('response.incomplete', 9, incompleteResponse)],
  ['response.failed', lifecycle('response.failed', 3, failedResponse)],
  ['response.output_item.added', textEvent(2)],
  ['response.output_item.added', reasoningEvent('response.output_item.added')],
  ['response.output_item.done', textEvent(7)],
  ['response.content_part.added', textEvent(3)],
  ['response.content_part.done', textEvent(6)],
  ['response.content_part.added', { type: 'response.content_part.added', sequence_number: 3, ...text, part: { type: 'refusal', refusal: '' } }],
  ['response.content_part.done', { type: 'response.content_part.done', sequence_number: 9, ...text, part: { type: 'reasoning_text', text: 'so' } }],
  ['response.output_text.delta', textEvent(4)],
  ['response.output_text.done', textEvent(5)],
  [
    'response.output_text.annotation.added',
    {
      type: 'response.output_text.annotation.added',
      sequence_number: 5,
      ...text,
      annotation_index: 0,
      annotation: { type: 'url_citation', url: 'https://en.wikipedia.org/wiki/Paris', start_index: 0, end_index: 5, title: 'Paris' },
    },
  ],
  ['response.refusal.delta', { type: 'response.refusal.delta', sequence_number: 4, ...text, delta: "I can't" }],
  ['response.refusal.done', { type: 'response.refusal.done', sequence_number: 5, ...text, refusal: "I can't help with that." }],
  ['response.function_call_arguments.delta', reasoningEvent('response.function_call_arguments.delta')],
  // OpenAI's own streams leave `name` out (see the recorded spec); the published schema wants it.
  ['response.function_call_arguments.done', { ...reasoningEvent('response.function_call_arguments.done'), name: 'calculator' }],
  ['response.output_item.added', { type: 'response.output_item.added', sequence_number: 2, output_index: 0, item: webSearchCall('in_progress') }],
  ['response.output_item.done', { type: 'response.output_item.done', sequence_number: 6, output_index: 0, item: webSearchCall('completed') }],
  ['response.web_search_call.in_progress', { type: 'response.web_search_call.in_progress', sequence_number: 3, ...webSearch }],
  ['response.web_search_call.searching', { type: 'response.web_search_call.searching', sequence_number: 4, ...webSearch }],
  ['response.web_search_call.completed', { type: 'response.web_search_call.completed', sequence_number: 5, ...webSearch }],
  ['response.reasoning_summary_part.added', reasoningEvent('response.reasoning_summary_part.added')],
  ['response.reasoning_summary_part.done', reasoningEvent('response.reasoning_summary_part.done')],
  ['response.reasoning_summary_text.delta', reasoningEvent('response.reasoning_summary_text.delta')],
  ['response.reasoning_summary_text.done', reasoningEvent('response.reasoning_summary_text.done')],
  [
    'response.reasoning_text.delta',
    { type: 'response.reasoning_text.delta', sequence_number: 4, item_id: 'rs_1', output_index: 0, content_index: 0, delta: 'so' },
  ],
  [
    'response.reasoning_text.done',
    { type: 'response.reasoning_text.done', sequence_number: 5, item_id: 'rs_1', output_index: 0, content_index: 0, text: 'so' },
  ],
  [
    'error',
    {
      type: 'error',
      sequence_number: 2,
      code: 'insufficient_quota',
      message: 'You exceeded your current quota.',
      param: null,
      error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota.', param: null },
    },
  ],
];

/** Events of the hosted tools, which the relay keeps as sent without modelling them. */
export const hostedToolEventExamples: Json[] = [
  { type: 'response.file_search_call.completed', sequence_number: 4, output_index: 0, item_id: 'fs_1' },
  { type: 'response.code_interpreter_call_code.delta', sequence_number: 5, output_index: 0, item_id: 'ci_1', delta: 'print(1)' },
  {
    type: 'response.image_generation_call.partial_image',
    sequence_number: 6,
    output_index: 0,
    item_id: 'ig_1',
    partial_image_index: 0,
    partial_image_b64: 'iVBORw0KGgo=',
  },
  { type: 'response.mcp_call.completed', sequence_number: 7, output_index: 0, item_id: 'mcp_1' },
  { type: 'response.custom_tool_call_input.delta', sequence_number: 8, output_index: 0, item_id: 'ctc_1', delta: 'SELECT' },
];
