import { argumentsFromSchema } from '@chat-relay/upstream-sim';
import type OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { expectSpecValid } from './openai-spec';
import { askForBoth, collect, reassembleToolCalls, runWeatherTool, weatherTools } from './weather-tools';

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;

describe('e2e: a full tool round trip through the OpenAI SDK', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startRelayWithSim();
    client = e2e.client();
  });
  afterEach(() => e2e.close());

  const user: MessageParam = { role: 'user', content: askForBoth };

  it('non-streamed: tool calls → tool results → a final answer that uses them', async () => {
    const first = await client.chat.completions.create({ model: 'gpt-4o', messages: [user], tools: weatherTools });
    const assistant = first.choices[0]!.message;
    const toolMessages: MessageParam[] = (assistant.tool_calls ?? []).map((call) => {
      if (call.type !== 'function') throw new Error('expected a function call');
      const content = runWeatherTool(call.function.name, JSON.parse(call.function.arguments));
      return { role: 'tool', tool_call_id: call.id, content };
    });
    expect(toolMessages).toHaveLength(2);

    // The SDK's own message object goes back as it came (content null, refusal null …).
    const final = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [user, assistant, ...toolMessages],
      tools: weatherTools,
    });

    expectSpecValid('CreateChatCompletionResponse', JSON.parse(JSON.stringify(final)));
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(final.choices[0]?.message.tool_calls ?? []).toEqual([]);
    const answer = final.choices[0]?.message.content ?? '';
    expect(answer).toContain('"temperature":21');
    expect(answer).toContain('"time":"14:05"');
    expect(answer).toContain('get_weather');

    const upstreamMessages = (e2e.sim.requests[1]?.body as { messages: unknown[] }).messages;
    expect(upstreamMessages).toEqual(JSON.parse(JSON.stringify([user, assistant, ...toolMessages])));
  });

  it('streamed: the same round trip with both legs streamed', async () => {
    const firstChunks = await collect(
      await client.chat.completions.create({ model: 'gpt-4o', messages: [user], tools: weatherTools, stream: true }),
    );
    const calls = reassembleToolCalls(firstChunks);
    expect(calls).toHaveLength(2);
    const assistant: MessageParam = {
      role: 'assistant',
      content: null,
      tool_calls: calls.map((call) => ({
        id: call.id!,
        type: 'function',
        function: { name: call.name!, arguments: call.arguments },
      })),
    };
    const toolMessages: MessageParam[] = calls.map((call) => ({
      role: 'tool',
      tool_call_id: call.id!,
      content: runWeatherTool(call.name!, JSON.parse(call.arguments)),
    }));

    const finalChunks = await collect(
      await client.chat.completions.create({
        model: 'gpt-4o',
        messages: [user, assistant, ...toolMessages],
        tools: weatherTools,
        stream: true,
      }),
    );
    for (const chunk of finalChunks) expectSpecValid('CreateChatCompletionStreamResponse', JSON.parse(JSON.stringify(chunk)));
    const answer = finalChunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(answer).toContain('"temperature":21');
    expect(answer).toContain('"time":"14:05"');
    expect(finalChunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual([
      'stop',
    ]);
  });

  it.each([false, true])('runTools (stream: %s) calls the functions with parsed arguments and ends in text', async (stream) => {
    const calledWith: Record<string, unknown[]> = { get_weather: [], get_time: [] };
    const tools = weatherTools.map((tool) => {
      if (tool.type !== 'function') throw new Error('expected a function tool');
      const { name, description = '', parameters = {} } = tool.function;
      return {
        type: 'function' as const,
        function: {
          name,
          description,
          parameters,
          parse: (text: string) => JSON.parse(text) as Record<string, unknown>,
          function: async (args: Record<string, unknown>) => {
            calledWith[name]?.push(args);
            return runWeatherTool(name, args);
          },
        },
      };
    });
    const body = { model: 'gpt-4o', messages: [user], tools };
    const runner = stream
      ? client.chat.completions.runTools({ ...body, stream: true })
      : client.chat.completions.runTools({ ...body, stream: false });
    const content = await runner.finalContent();

    // Exactly the arguments the simulator built from each schema, parsed.
    expect(calledWith).toEqual(
      Object.fromEntries(tools.map((tool) => [tool.function.name, [argumentsFromSchema(tool.function.parameters)]])),
    );
    expect(calledWith['get_weather']?.[0]).toEqual(expect.objectContaining({ city: expect.any(String) }));
    expect(content).toContain('"temperature":21');
    expect(content).toContain('"time":"14:05"');
    expect(e2e.sim.requests.map((request) => (request.body as { messages: unknown[] }).messages.length)).toEqual([1, 4]);
  });
});
