import type OpenAI from 'openai';
import { startRelayWithSim, SIM_KEY, type E2eRelayWithSim } from './e2e-relay';
import { expectSpecValid } from './openai-spec';
import { askForBoth, collect, functionCalls, reassembleToolCalls, weatherTools } from './weather-tools';

type ChatCompletionCreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

describe('e2e: tool calls through the OpenAI SDK', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startRelayWithSim({ models: ['gpt-4o'], model_mapping: { 'my-alias': 'gpt-4o' } });
    client = e2e.client();
  });
  afterEach(() => e2e.close());

  const toolRequest = {
    model: 'my-alias',
    messages: [{ role: 'user' as const, content: askForBoth }],
    tools: weatherTools,
    tool_choice: 'auto' as const,
    parallel_tool_calls: true,
  };

  it('returns parallel tool calls with the caller’s model name and forwards the request intact', async () => {
    const unknownField = { metadata_x: { a: 1 } };
    const completion = await client.chat.completions.create({
      ...toolRequest,
      ...unknownField,
    } as ChatCompletionCreateParams);

    expectSpecValid('CreateChatCompletionResponse', JSON.parse(JSON.stringify(completion)));
    expect(completion.model).toBe('my-alias');
    const [choice] = completion.choices;
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const calls = choice?.message.tool_calls ?? [];
    expect(calls.map((call) => call.type === 'function' && call.function.name)).toEqual(['get_weather', 'get_time']);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    for (const call of calls) {
      if (call.type !== 'function') throw new Error('expected a function call');
      expect(JSON.parse(call.function.arguments)).toEqual(expect.objectContaining({ city: expect.any(String) }));
    }

    expect(e2e.sim.requests).toHaveLength(1);
    const upstream = e2e.sim.requests[0]!;
    expect(upstream.headers['authorization']).toBe(`Bearer ${SIM_KEY}`);
    expect(JSON.stringify(upstream.headers)).not.toContain(e2e.token);
    expect(upstream.body).toEqual({
      ...toolRequest,
      ...unknownField,
      model: 'gpt-4o',
    });
  });

  it('streams tool calls as index-keyed deltas that reassemble into the same calls', async () => {
    const stream = await client.chat.completions.create({ ...toolRequest, stream: true });
    const chunks = await collect(stream);

    for (const chunk of chunks) {
      expectSpecValid('CreateChatCompletionStreamResponse', JSON.parse(JSON.stringify(chunk)));
      expect(chunk.model).toBe('my-alias');
    }
    const finishes = chunks.flatMap((chunk) => chunk.choices.filter((choice) => choice.finish_reason !== null));
    expect(finishes.map((choice) => choice.finish_reason)).toEqual(['tool_calls']);

    const calls = reassembleToolCalls(chunks);
    expect(calls.map((call) => [call.index, call.name])).toEqual([
      [0, 'get_weather'],
      [1, 'get_time'],
    ]);
    for (const call of calls) {
      expect(call).toMatchObject({ idDeltas: 1, nameDeltas: 1, openedWithIdAndName: true });
      expect(call.id).toMatch(/\S/);
      expect(() => JSON.parse(call.arguments)).not.toThrow();
    }
    expect(e2e.sim.requests[0]?.body).toMatchObject({ model: 'gpt-4o', stream: true });

    const nonStreamed = await client.chat.completions.create(toolRequest);
    const expected = functionCalls(nonStreamed.choices[0]?.message.tool_calls);
    expect(calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }))).toEqual(expected);
  });

  it('gives the same calls through chat.completions.stream() and finalChatCompletion()', async () => {
    const final = await client.chat.completions.stream(toolRequest).finalChatCompletion();
    const nonStreamed = await client.chat.completions.create(toolRequest);

    expect(final.model).toBe('my-alias');
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    const calls = final.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((call) => call.type === 'function' && call.function.name)).toEqual(['get_weather', 'get_time']);
    for (const call of calls) {
      if (call.type !== 'function') throw new Error('expected a function call');
      expect(JSON.parse(call.function.arguments)).toEqual(expect.objectContaining({ city: expect.any(String) }));
    }
    expect(functionCalls(calls)).toEqual(functionCalls(nonStreamed.choices[0]?.message.tool_calls));
  });
});
