import { z } from 'zod';
import { createOpenAiSpecValidator } from '../../testing/openai-spec';
import { ChatCompletionChunkSchema } from './chat-completion-chunk.schema';
import { ChatCompletionRequestSchema } from './chat-completion-request.schema';
import { ChatCompletionSchema } from './chat-completion-response.schema';
import { ErrorResponseSchema } from './error.schema';

// What our schemas accept must also be what OpenAI's own spec (test-fixtures/spec) calls valid,
// so an OpenAI SDK reading the relay's answers never meets a shape it does not know.
const openAiSpec = createOpenAiSpecValidator();

const created = 1_727_346_182;
const toolCallCompletion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created,
  model: 'gpt-4o-2024-08-06',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        annotations: [],
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    },
  ],
  usage: { prompt_tokens: 44, completion_tokens: 16, total_tokens: 60 },
};
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created,
  model: 'gpt-4o-2024-08-06',
  choices,
  ...extra,
});
const toolCallChunk = chunk([
  {
    index: 0,
    delta: {
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '' } }],
    },
    logprobs: null,
    finish_reason: null,
  },
]);
const argumentsChunk = chunk([
  { index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '{"city":' } }] }, finish_reason: null },
]);
const finishChunk = chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]);
const usageChunk = chunk([], {
  usage: { prompt_tokens: 44, completion_tokens: 16, total_tokens: 60, completion_tokens_details: { reasoning_tokens: 0 } },
});
const relayError = (type: string, code: string | null, param: string | null) => ({
  error: { message: 'Explained for a human.', type, param, code },
});

function expectAcceptedByBoth(schema: z.ZodTypeAny, specName: string, value: unknown): void {
  expect(schema.safeParse(value).error?.issues).toBeUndefined();
  expect(openAiSpec.errorsFor(specName, value)).toEqual([]);
}

function expectRejectedByBoth(schema: z.ZodTypeAny, specName: string, value: unknown): void {
  expect(schema.safeParse(value).success).toBe(false);
  expect(openAiSpec.errorsFor(specName, value)).not.toEqual([]);
}

describe('answers our schemas accept are valid per the official OpenAI spec', () => {
  it('a completion that only calls tools (content null, two tool_calls)', () => {
    expectAcceptedByBoth(ChatCompletionSchema, 'CreateChatCompletionResponse', toolCallCompletion);
  });

  it('a text completion with finish_reason length', () => {
    const message = { role: 'assistant', content: 'Hi', refusal: null };
    const choice = { index: 0, message, logprobs: null, finish_reason: 'length' };
    expectAcceptedByBoth(ChatCompletionSchema, 'CreateChatCompletionResponse', { ...toolCallCompletion, choices: [choice] });
  });

  it.each([
    ['a tool-call chunk with tool_calls[].index, id and name', toolCallChunk],
    ['an arguments fragment with only index and arguments', argumentsChunk],
    ['a finish chunk', finishChunk],
    ['the include_usage chunk with choices []', usageChunk],
  ])('%s', (_name, value) => {
    expectAcceptedByBoth(ChatCompletionChunkSchema, 'CreateChatCompletionStreamResponse', value);
  });

  it.each([
    ['400 schema violation', relayError('invalid_request_error', 'invalid_value', 'messages[0].role')],
    ['401 bad key', relayError('authentication_error', 'invalid_api_key', null)],
    ['429 rate limit', relayError('rate_limit_error', 'rate_limit_exceeded', null)],
    ['503 no channel', relayError('service_unavailable', 'no_available_channel', null)],
    ['an upstream error without a code', relayError('upstream_error', null, null)],
  ])('our error body: %s', (_name, value) => {
    expectAcceptedByBoth(ErrorResponseSchema, 'ErrorResponse', value);
  });
});

describe('our schemas and the official spec agree on rejections (the check is not vacuous)', () => {
  it('an unknown finish_reason', () => {
    const choice = { ...toolCallCompletion.choices[0], finish_reason: 'tool_use' };
    expectRejectedByBoth(ChatCompletionSchema, 'CreateChatCompletionResponse', { ...toolCallCompletion, choices: [choice] });
  });

  it('a completion whose created is not an integer', () => {
    expectRejectedByBoth(ChatCompletionSchema, 'CreateChatCompletionResponse', { ...toolCallCompletion, created: 1.5 });
  });

  it('a streamed tool call without index', () => {
    const value = chunk([{ index: 0, delta: { tool_calls: [{ function: { arguments: '{' } }] }, finish_reason: null }]);
    expectRejectedByBoth(ChatCompletionChunkSchema, 'CreateChatCompletionStreamResponse', value);
  });

  it('a chunk without choices', () => {
    const { choices: _choices, ...value } = usageChunk;
    expectRejectedByBoth(ChatCompletionChunkSchema, 'CreateChatCompletionStreamResponse', value);
  });

  it('an error body without param or code (both are required, null when unknown)', () => {
    const value = { error: { message: 'x', type: 'invalid_request_error' } };
    expectRejectedByBoth(ErrorResponseSchema, 'ErrorResponse', value);
  });
});

describe('requests our schema accepts are valid per the official CreateChatCompletionRequest', () => {
  const toolCall = { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{}' } };
  const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }];
  const conversation = [
    { role: 'system', content: 'Be brief.' },
    { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Weather here?' },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      ],
    },
    { role: 'assistant', content: null, tool_calls: [toolCall] },
    { role: 'tool', content: '{"temp":21}', tool_call_id: 'call_a' },
    { role: 'assistant', tool_calls: [toolCall] },
    { role: 'function', name: 'get_weather', content: '{"temp":21}' },
  ];

  it.each([
    ['every role in one conversation', { messages: conversation }],
    ['tool_choice required with parallel_tool_calls', { tools, tool_choice: 'required', parallel_tool_calls: false }],
    ['a named tool_choice', { tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } }],
    [
      'an allowed_tools tool_choice',
      {
        tools,
        tool_choice: {
          type: 'allowed_tools',
          allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'get_weather' } }] },
        },
      },
    ],
    ['a custom tool_choice', { tools, tool_choice: { type: 'custom', custom: { name: 'run_sql' } } }],
    ['streaming with include_usage', { stream: true, stream_options: { include_usage: true } }],
    [
      'a json_schema response_format',
      { response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' } } } },
    ],
    ['legacy functions', { functions: [tools[0]!.function], function_call: { name: 'get_weather' } }],
  ])('%s', (_name, fields) => {
    const request = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], ...fields };
    expectAcceptedByBoth(ChatCompletionRequestSchema, 'CreateChatCompletionRequest', request);
  });
});
