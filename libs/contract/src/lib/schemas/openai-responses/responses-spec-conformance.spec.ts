import { z } from 'zod';
import { createOpenAiSpecValidator, loadOpenAiSpec } from '../../../testing/openai-spec';
import { recordedTextResponse } from '../../../testing/recorded-responses-answers';
import {
  recordedChainedRequest,
  recordedFunctionCallRequest,
  recordedReasoningRoundTripRequest,
  recordedReasoningSummaryRequest,
  recordedStreamRequest,
  recordedTextRequest,
} from '../../../testing/recorded-responses-requests';
import { recordedReasoningStreamExcerpt } from '../../../testing/recorded-responses-reasoning-stream';
import { recordedQuotaErrorStream, recordedTextStream } from '../../../testing/recorded-responses-streams';
import {
  failedResponse,
  functionCallItem,
  hostedToolEventExamples,
  incompleteResponse,
  reasoningCallResponse,
  reasoningItem,
  reasoningSummaryResponse,
  streamEventExamples,
  textAndCallResponse,
  textMessage,
  textResponse,
  webSearchCall,
} from '../../../testing/responses-examples';
import { ResponseDeletedSchema, ResponseInputItemListSchema, ResponseObjectSchema } from './response.schema';
import { RESPONSE_STREAM_EVENT_TYPES, ResponseStreamEventSchema } from './response-stream-event.schema';
import { ResponsesRequestSchema } from './responses-request.schema';

// What our Responses schemas accept must also be what OpenAI's published schema (test-fixtures/spec)
// calls valid, so an SDK reading the relay never meets a shape it does not know; and where the
// relay must refuse, both refuse. `oneOf` is read as `anyOf` (see testing/openai-spec.ts).
const document = loadOpenAiSpec();
const openAiSpec = createOpenAiSpecValidator(document, { oneOfAsAnyOf: true });

type Component = { properties: { type: { enum: string[] } } };
/** Event type → the component describing it, read from the published ResponseStreamEvent union. */
const eventComponents = new Map(
  (document.components.schemas['ResponseStreamEvent']!['anyOf'] as { $ref: string }[]).map(({ $ref }) => {
    const name = $ref.split('/').at(-1)!;
    return [(document.components.schemas[name] as unknown as Component).properties.type.enum[0]!, name];
  }),
);
const componentOf = (event: unknown) => eventComponents.get((event as { type: string }).type)!;

function expectAcceptedByBoth(schema: z.ZodTypeAny, specName: string, value: unknown): void {
  expect(schema.safeParse(value).error?.issues).toBeUndefined();
  expect(openAiSpec.errorsFor(specName, value)).toEqual([]);
}

function expectRejectedByBoth(schema: z.ZodTypeAny, specName: string, value: unknown): void {
  expect(schema.safeParse(value).success).toBe(false);
  expect(openAiSpec.errorsFor(specName, value)).not.toEqual([]);
}

const request = (fields: object) => ({ model: 'gpt-4.1', input: 'Hi', ...fields });
const weatherTool = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: true };
const call = { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{}' };

describe('requests our schema accepts are valid per the official CreateResponse', () => {
  it.each([
    ['an untyped text message (recorded)', recordedTextRequest],
    ['a function_call_output under previous_response_id (recorded)', recordedChainedRequest],
    ['reasoning summary, instructions and include (recorded)', recordedReasoningSummaryRequest],
    ['a streamed request (recorded)', recordedStreamRequest],
    [
      'typed messages with text, image and file parts, and a replayed assistant message',
      request({
        input: [
          {
            type: 'message',
            role: 'user',
            content: [
              { type: 'input_text', text: 'What is this?' },
              { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' },
            ],
          },
          { type: 'message', role: 'developer', content: [{ type: 'input_file', file_id: 'file_1' }] },
          { ...(recordedTextResponse.output[0] as object) },
        ],
      }),
    ],
    [
      'a call round trip with reasoning re-sent (summary and encrypted_content)',
      request({
        input: [
          { role: 'user', content: 'Weather?' },
          { type: 'reasoning', id: reasoningItem['id'], summary: reasoningItem['summary'], encrypted_content: reasoningItem['encrypted_content'] },
          { ...call, status: 'completed' },
          { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
          { type: 'item_reference', id: 'msg_1' },
        ],
      }),
    ],
    [
      'a function tool beside hosted tools, and an allowed_tools choice',
      request({
        tools: [weatherTool, { type: 'web_search' }, { type: 'mcp', server_label: 'deepwiki', server_url: 'https://mcp.deepwiki.com/mcp' }],
        tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'get_weather' }] },
      }),
    ],
    ['a named function tool_choice', request({ tools: [weatherTool], tool_choice: { type: 'function', name: 'get_weather' } })],
    [
      'a json_schema text format',
      request({ text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true }, verbosity: 'low' } }),
    ],
    ['a json_object text format', request({ text: { format: { type: 'json_object' } } })],
    [
      'every sampling and state field',
      request({
        max_output_tokens: 16,
        temperature: 2,
        top_p: 0,
        top_logprobs: 20,
        store: false,
        stream: true,
        truncation: 'auto',
        metadata: { tenant: 'a' },
      }),
    ],
  ])('%s', (_name, body) => {
    expectAcceptedByBoth(ResponsesRequestSchema, 'CreateResponse', body);
  });

  it('needs oneOf read as anyOf: a typed user message matches two members of InputItem', () => {
    const strict = createOpenAiSpecValidator(document);
    const typedMessage = request({ input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }] });
    expect(strict.errorsFor('CreateResponse', typedMessage).join('\n')).toContain('must match exactly one schema in oneOf');
    expect(openAiSpec.errorsFor('CreateResponse', typedMessage)).toEqual([]);
  });
});

describe('requests both refuse', () => {
  it.each([
    ['max_output_tokens 0', request({ max_output_tokens: 0 })],
    ['a fractional max_output_tokens', request({ max_output_tokens: 100.5 })],
    ['temperature 3', request({ temperature: 3 })],
    ['top_p 1.5', request({ top_p: 1.5 })],
    ['top_logprobs 21', request({ top_logprobs: 21 })],
    ['a function_call without call_id', request({ input: [{ type: 'function_call', name: 'get_weather', arguments: '{}' }] })],
    ['a message with role tool', request({ input: [{ role: 'tool', content: 'x' }] })],
    ['a json_schema format without name', request({ text: { format: { type: 'json_schema', schema: { type: 'object' } } } })],
    ['a function tool without name', request({ tools: [{ type: 'function', parameters: {}, strict: true }] })],
  ])('%s', (_name, body) => {
    expectRejectedByBoth(ResponsesRequestSchema, 'CreateResponse', body);
  });
});

describe('where our request schema and the official one differ, on purpose', () => {
  it('a missing model: refused (the relay routes on it), though OpenAI may take it from a stored prompt', () => {
    const body = { input: 'Hi', prompt: { id: 'pmpt_1' } };
    expect(ResponsesRequestSchema.safeParse(body).success).toBe(false);
    expect(openAiSpec.errorsFor('CreateResponse', body)).toEqual([]);
  });

  it('max_output_tokens 10: accepted (other upstreams take it), below OpenAI’s minimum of 16', () => {
    expect(ResponsesRequestSchema.safeParse(request({ max_output_tokens: 10 })).success).toBe(true);
    expect(openAiSpec.errorsFor('CreateResponse', request({ max_output_tokens: 10 })).join('\n')).toContain('must be >= 16');
  });

  it('a function_call_output without call_id: refused (nothing to pair it with), though the schema leaves it optional', () => {
    const body = request({ input: [{ type: 'function_call_output', output: 'x' }] });
    expect(ResponsesRequestSchema.safeParse(body).success).toBe(false);
    expect(openAiSpec.errorsFor('CreateResponse', body)).toEqual([]);
  });

  it.each([
    ['an echoed call with status null (pydantic-ai)', recordedFunctionCallRequest, '/input/1/status must be string'],
    ['function tools without strict (simonw/llm)', recordedReasoningRoundTripRequest, "/tools/0 must have required property 'strict'"],
  ])('recorded requests OpenAI served, which its schema refuses, are accepted: %s', (_name, body, specError) => {
    expect(ResponsesRequestSchema.safeParse(body).success).toBe(true);
    expect(openAiSpec.errorsFor('CreateResponse', body).join('\n')).toContain(specError);
  });
});

describe('answers our schemas accept are valid per the official spec', () => {
  it.each([
    ['a text message', textResponse],
    ['text and a function call in the same turn', textAndCallResponse],
    ['reasoning with a summary and encrypted_content, then text', reasoningSummaryResponse],
    ['reasoning then a function call', reasoningCallResponse],
    ['an incomplete response (max_output_tokens)', incompleteResponse],
    ['a failed response (insufficient_quota)', failedResponse],
    ['a web search call, then the message', { ...textResponse, tools: [{ type: 'web_search' }], output: [webSearchCall('completed'), textMessage] }],
    ['a failed web search call, then the message', { ...textResponse, output: [webSearchCall('failed'), textMessage] }],
  ])('the Response object: %s', (_name, value) => {
    expectAcceptedByBoth(ResponseObjectSchema, 'Response', value);
  });

  it('every modelled stream event type has an example below', () => {
    expect([...new Set(streamEventExamples.map(([type]) => type))].sort()).toEqual([...RESPONSE_STREAM_EVENT_TYPES].sort());
  });

  it.each(streamEventExamples)('the stream event %s', (type, event) => {
    expect(event['type']).toBe(type);
    expectAcceptedByBoth(ResponseStreamEventSchema, componentOf(event), event);
    expect(openAiSpec.errorsFor('ResponseStreamEvent', event)).toEqual([]);
  });

  it.each(hostedToolEventExamples.map((event) => [event['type'], event] as const))('the hosted-tool event %s, kept as sent', (_type, event) => {
    expect(ResponseStreamEventSchema.parse(event)).toEqual(event);
    expect(openAiSpec.errorsFor(componentOf(event), event)).toEqual([]);
  });

  it('the input item list', () => {
    const page = {
      object: 'list',
      data: [
        { id: 'msg_1', type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'Weather?' }] },
        { ...functionCallItem },
        { id: 'fco_1', type: 'function_call_output', call_id: functionCallItem['call_id'], output: '123124', status: 'completed' },
      ],
      first_id: 'msg_1',
      last_id: 'fco_1',
      has_more: false,
    };
    expectAcceptedByBoth(ResponseInputItemListSchema, 'ResponseItemList', page);
  });

  it('the delete answer is the one OpenAI documents (the spec gives it as an example, with no schema)', () => {
    type Operation = { 'x-oaiMeta': { examples: { response: string } } };
    const paths = (document as unknown as { paths: Record<string, Record<string, Operation>> }).paths;
    const documented: unknown = JSON.parse(paths['/responses/{response_id}']!['delete']!['x-oaiMeta'].examples.response);
    expect(ResponseDeletedSchema.parse(documented)).toEqual(documented);
    expect(Object.keys(documented as object).sort()).toEqual(Object.keys(ResponseDeletedSchema.shape).sort());
  });
});

describe('answers both refuse', () => {
  it.each([
    ['an unknown status', { ...textResponse, status: 'done' }],
    ['a fractional created_at', { ...textResponse, created_at: 1.5 }],
    ['an output message without id', { ...textResponse, output: [{ ...(textResponse['output'] as object[])[0], id: undefined }] }],
    ['a function_call output item without call_id', { ...textResponse, output: [{ ...functionCallItem, call_id: undefined }] }],
  ])('the Response object: %s', (_name, value) => {
    expectRejectedByBoth(ResponseObjectSchema, 'Response', JSON.parse(JSON.stringify(value)));
  });

  it.each([
    [
      'an output_text delta without delta',
      { type: 'response.output_text.delta', sequence_number: 4, item_id: 'msg_1', output_index: 0, content_index: 0, logprobs: [] },
    ],
    [
      'an event without sequence_number',
      { type: 'response.refusal.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'x' },
    ],
    [
      'a content part without part',
      { type: 'response.content_part.added', sequence_number: 3, item_id: 'msg_1', output_index: 0, content_index: 0 },
    ],
    ['an error event without message', { type: 'error', sequence_number: 2, code: 'server_error', param: null }],
  ])('the stream event: %s', (_name, event) => {
    expectRejectedByBoth(ResponseStreamEventSchema, componentOf(event), event);
  });
});

describe('where OpenAI’s recorded answers differ from its own schema (ours reads them all)', () => {
  it('a recorded Response: `user: null` and no cache_write_tokens, nothing else', () => {
    const errors = openAiSpec.errorsFor('Response', recordedTextResponse);
    expect(errors.map((error) => error.split(' {')[0])).toEqual([
      '/user must be string',
      "/usage/input_tokens_details must have required property 'cache_write_tokens'",
    ]);
  });

  it.each([
    ['response.created with usage null', recordedTextStream[0], '/response/usage must be object'],
    [
      'response.failed with error code insufficient_quota',
      recordedQuotaErrorStream[3],
      '/response/error/code must be equal to one of the allowed values',
    ],
    [
      'function_call_arguments.done without name',
      recordedReasoningStreamExcerpt.find((event) => event.type === 'response.function_call_arguments.done'),
      "must have required property 'name'",
    ],
    ['the error event nested in `error`', recordedQuotaErrorStream[2], "must have required property 'message'"],
  ])('%s', (_name, event, specError) => {
    expect(ResponseStreamEventSchema.safeParse(event).success).toBe(true);
    expect(openAiSpec.errorsFor(componentOf(event), event).join('\n')).toContain(specError);
  });
});
