import { ChatCompletionSchema, ErrorResponseSchema, ResponseObjectSchema } from '@chat-relay/contract';
import { startUpstreamSim } from '../sim-server';
import { postChat, postResponses, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { warmSpecChecker, expectSpecValid } from './testing/openai-spec-check';

const weatherTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const timeTool = { type: 'function', name: 'get_time', parameters: { type: 'object', properties: {} } };
const chatTool = (tool: typeof weatherTool | typeof timeTool) => ({ type: 'function', function: { ...tool, type: undefined } });

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
}, 30_000);
afterAll(() => sim.close());
beforeEach(() => sim.reset());

/** A non-streamed Response, checked by the OpenAI spec and the contract. */
async function create(body: Record<string, unknown>) {
  const response = await postResponses(sim, body);
  expect(response.status).toBe(200);
  const json: unknown = await response.json();
  expectSpecValid('Response', json);
  return ResponseObjectSchema.parse(json);
}

/** `w1 w2 … wN`: one word token each. */
const words = (count: number): string => Array.from({ length: count }, (_, index) => `w${index + 1}`).join(' ');

function outputText(response: { output: unknown[] }): string {
  return response.output
    .flatMap((item) => ((item as { type: string }).type === 'message' ? (item as { content: { text: string }[] }).content : []))
    .map((part) => part.text)
    .join('');
}

describe('POST /v1/responses', () => {
  it('answers a string input with a Response: resp_/msg_ ids, the echo, usage with details', async () => {
    const response = await create({ model: 'gpt-4o', input: 'Hello there' });
    expect(response.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(response).toMatchObject({ object: 'response', status: 'completed', model: 'gpt-4o', error: null, incomplete_details: null });
    expect(response.output).toEqual([
      {
        id: expect.stringMatching(/^msg_[0-9a-f]{48}$/),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'You said: Hello there', annotations: [], logprobs: [] }],
      },
    ]);
    expect(response.usage).toEqual({
      input_tokens: expect.any(Number),
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: 4,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: (response.usage?.input_tokens ?? 0) + 4,
    });
    expect(response['completed_at']).toBeGreaterThanOrEqual(response.created_at);
  });

  it('echoes the request settings like OpenAI, with its defaults when they are absent', async () => {
    const defaults = await create({ model: 'gpt-4o', input: 'x' });
    expect(defaults).toMatchObject({
      instructions: null,
      tools: [],
      tool_choice: 'auto',
      temperature: 1,
      top_p: 1,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      reasoning: { effort: null, summary: null },
      store: true,
      previous_response_id: null,
      metadata: {},
      parallel_tool_calls: true,
      truncation: 'disabled',
      max_output_tokens: null,
      background: false,
    });
    // No real OpenAI model takes both a temperature of 0.2 and an effort (model-rules.spec.ts): a
    // model the simulator's facts table does not know echoes every setting.
    const set = await create({
      model: 'compatible-model',
      input: 'x',
      instructions: 'Be brief.',
      tools: [weatherTool, { type: 'web_search' }],
      tool_choice: 'none',
      temperature: 0.2,
      top_p: 0.5,
      text: { verbosity: 'low' },
      reasoning: { effort: 'low', summary: 'auto' },
      store: false,
      metadata: { run: '7' },
      parallel_tool_calls: false,
      truncation: 'auto',
      max_output_tokens: 50,
    });
    expect(set).toMatchObject({
      instructions: 'Be brief.',
      tool_choice: 'none',
      temperature: 0.2,
      top_p: 0.5,
      text: { format: { type: 'text' }, verbosity: 'low' },
      reasoning: { effort: 'low', summary: 'auto' },
      store: false,
      metadata: { run: '7' },
      parallel_tool_calls: false,
      truncation: 'auto',
      max_output_tokens: 50,
    });
    // A schema whose properties are all required is made strict, as OpenAI does by default.
    expect(set['tools']).toEqual([
      { ...weatherTool, parameters: { ...weatherTool.parameters, additionalProperties: false }, strict: true },
      { type: 'web_search' },
    ]);
  });

  it('calls fitting tools: fc_ items with call_ ids, the same calls, ids and tokens as /chat/completions', async () => {
    const input = 'get weather and get time';
    const response = await create({ model: 'gpt-4o', input: [{ role: 'user', content: input }], tools: [weatherTool, timeTool] });
    const chat = ChatCompletionSchema.parse(
      await (await postChat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: input }], tools: [chatTool(weatherTool), chatTool(timeTool)] })).json(),
    );
    const chatCalls = (chat.choices[0]?.message.tool_calls ?? []).map((call) =>
      call.type === 'function' ? { call_id: call.id, name: call.function.name, arguments: call.function.arguments } : {},
    );
    expect(response.output).toEqual(
      chatCalls.map((call) => ({ ...call, id: expect.stringMatching(/^fc_[0-9a-f]{48}$/), type: 'function_call', status: 'completed' })),
    );
    expect(chatCalls.map((call) => call.name)).toEqual(['get_weather', 'get_time']);
    expect(response.output[0]).toMatchObject({ call_id: expect.stringMatching(/^call_/), arguments: '{"city":"city value"}' });
    expect(response.usage?.output_tokens).toBe(chat.usage?.completion_tokens);
    expect(response.usage?.input_tokens).toBe(chat.usage?.prompt_tokens);
  });

  it('answers the tool results in the input with the same text as /chat/completions', async () => {
    const response = await create({
      model: 'gpt-4o',
      tools: [weatherTool],
      input: [
        { role: 'user', content: 'get weather' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'rain' },
      ],
    });
    const chat = ChatCompletionSchema.parse(
      await (
        await postChat(sim, {
          model: 'gpt-4o',
          tools: [chatTool(weatherTool)],
          messages: [
            { role: 'user', content: 'get weather' },
            { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
            { role: 'tool', tool_call_id: 'call_1', content: 'rain' },
          ],
        })
      ).json(),
    );
    expect(outputText(response)).toBe('Here is what I found: get_weather: rain.');
    expect(outputText(response)).toBe(chat.choices[0]?.message.content);
    expect(response.usage?.input_tokens).toBe(chat.usage?.prompt_tokens);
  });

  it('honours tool_choice (named function, none, allowed_tools) and parallel_tool_calls: false', async () => {
    const names = async (extra: Record<string, unknown>) =>
      (await create({ model: 'gpt-4o', input: 'get weather and get time', tools: [weatherTool, timeTool], ...extra })).output.map(
        (item) => (item as { name?: string }).name ?? item.type,
      );
    expect(await names({ tool_choice: { type: 'function', name: 'get_time' } })).toEqual(['get_time']);
    expect(await names({ tool_choice: 'none' })).toEqual(['message']);
    expect(await names({ tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'get_time' }] } })).toEqual([
      'get_time',
    ]);
    expect(await names({ parallel_tool_calls: false })).toEqual(['get_weather']);
  });

  it('says a preamble message before its calls with [sim:preamble=on]', async () => {
    const response = await create({ model: 'gpt-4o', input: 'get weather [sim:preamble=on]', tools: [weatherTool] });
    expect(response.output.map((item) => item.type)).toEqual(['message', 'function_call']);
    expect(outputText(response)).toBe('Let me call get_weather.');
  });

  it('ends incomplete at max_output_tokens: reason max_output_tokens, message incomplete, no completed_at', async () => {
    const response = await create({ model: 'gpt-4o', input: words(20), max_output_tokens: 16 });
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, completed_at: null });
    expect(response.output[0]).toMatchObject({ status: 'incomplete' });
    expect(outputText(response)).toBe(`You said: ${words(14)}`);
    expect(response.usage?.output_tokens).toBe(16);
    const enough = await create({ model: 'gpt-4o', input: words(14), max_output_tokens: 16 });
    expect(enough).toMatchObject({ status: 'completed', incomplete_details: null });
  });

  it('refuses max_output_tokens below 16, as OpenAI does', async () => {
    const response = await postResponses(sim, { model: 'gpt-4o', input: 'x', max_output_tokens: 15 });
    expect(response.status).toBe(400);
    expect(ErrorResponseSchema.parse(await response.json()).error).toEqual({
      type: 'invalid_request_error',
      param: 'max_output_tokens',
      code: 'integer_below_min_value',
      message: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 15 instead.",
    });
  });

  it('answers text.format json_schema with JSON valid for the schema, json_object with {"echo": …}', async () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 2 } },
      required: ['city', 'days'],
      additionalProperties: false,
    };
    const structured = await create({ model: 'gpt-4o', input: 'forecast', text: { format: { type: 'json_schema', name: 'forecast', schema, strict: true } } });
    expect(JSON.parse(outputText(structured))).toEqual({ city: 'city value', days: 2 });
    expect(structured['text']).toMatchObject({ format: { type: 'json_schema', name: 'forecast', schema } });
    const object = await create({ model: 'gpt-4o', input: 'forecast', text: { format: { type: 'json_object' } } });
    expect(JSON.parse(outputText(object))).toEqual({ echo: 'forecast' });
  });

  it('answers 400 like OpenAI: bad JSON, missing model, out-of-range temperature, unknown named tool', async () => {
    const cases: [unknown, Record<string, unknown>][] = [
      ['{"model": ', { type: 'invalid_request_error', message: 'We could not parse the JSON body of your request.' }],
      [{ input: 'x' }, { param: 'model', message: "Missing required parameter: 'model'." }],
      [
        { model: 'gpt-4o', input: 'x', temperature: -1 },
        {
          param: 'temperature',
          code: 'decimal_below_min_value',
          message: "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -1 instead.",
        },
      ],
      [{ model: 'gpt-4o', input: 'x', tools: [weatherTool], tool_choice: { type: 'function', name: 'nope' } }, { param: 'tool_choice' }],
      [{ model: 'gpt-4o', input: [{ role: 'robot', content: 'x' }] }, { param: expect.stringMatching(/^input\[0\]/) }],
    ];
    for (const [body, expected] of cases) {
      const response = await postResponses(sim, body);
      expect(response.status).toBe(400);
      const error: unknown = await response.json();
      expectSpecValid('ErrorResponse', error);
      expect(ErrorResponseSchema.parse(error).error).toMatchObject({ type: 'invalid_request_error', ...expected });
    }
  });

  it('answers 401 invalid_api_key for a missing or refused key, and records every call', async () => {
    for (const key of ['', 'sk-wrong']) {
      const response = await postResponses(sim, { model: 'gpt-4o', input: 'x' }, { key });
      expect(response.status).toBe(401);
      expect(ErrorResponseSchema.parse(await response.json()).error.code).toBe('invalid_api_key');
    }
    expect(sim.requests.map((request) => [request.method, request.path, (request.body as { input?: string }).input])).toEqual([
      ['POST', '/v1/responses', 'x'],
      ['POST', '/v1/responses', 'x'],
    ]);
  });
});
