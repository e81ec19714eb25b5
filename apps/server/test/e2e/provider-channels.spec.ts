import type { UpstreamSim } from '@chat-relay/upstream-sim';
import type OpenAI from 'openai';
import { startE2eRelay, SIM_KEY, type E2eRelay } from './e2e-relay';
import { expectSpecValid } from './openai-spec';
import { askForBoth, collect, reassembleToolCalls, runWeatherTool, weatherTools } from './weather-tools';

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** The two translated channel types, each in front of the simulator speaking its format. */
const providers = [
  {
    type: 'anthropic' as const,
    family: 'claude-sonnet-4-5',
    baseUrl: (sim: UpstreamSim) => sim.anthropicBaseUrl,
    sawOwnFormat: (sim: UpstreamSim) =>
      sim.requests.every((request) => request.path === '/v1/messages' && request.headers['x-api-key'] === SIM_KEY),
  },
  {
    type: 'gemini' as const,
    family: 'gemini-2.5-flash',
    baseUrl: (sim: UpstreamSim) => sim.geminiBaseUrl,
    sawOwnFormat: (sim: UpstreamSim) =>
      sim.requests.every(
        (request) =>
          request.path.startsWith('/v1beta/models/gemini-2.5-flash:') && request.headers['x-goog-api-key'] === SIM_KEY,
      ),
  },
];

describe.each(providers)('e2e: tool calls through a $type channel', (provider) => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
    await e2e.addChannel(provider.baseUrl(sim), { type: provider.type, models: [provider.family] });
    client = e2e.client();
  });
  afterEach(() => e2e.close());

  const user: MessageParam = { role: 'user', content: askForBoth };
  const toolResults = (calls: Array<{ id: string; name: string; arguments: string }>): MessageParam[] =>
    calls.map((call) => ({
      role: 'tool',
      tool_call_id: call.id,
      content: runWeatherTool(call.name, JSON.parse(call.arguments)),
    }));

  it('non-streamed: parallel tool calls → tool results → a final answer that uses them', async () => {
    const first = await client.chat.completions.create({ model: provider.family, messages: [user], tools: weatherTools });
    expectSpecValid('CreateChatCompletionResponse', JSON.parse(JSON.stringify(first)));
    const message = first.choices[0]!.message;
    expect(first.model).toBe(provider.family);
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(message.content).toBeNull();
    const calls = (message.tool_calls ?? []).map((call) => {
      if (call.type !== 'function') throw new Error('expected a function call');
      return { id: call.id, name: call.function.name, arguments: call.function.arguments };
    });
    expect(calls.map((call) => call.name).sort()).toEqual(['get_time', 'get_weather']);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
    for (const call of calls) expect(call.id).toMatch(/^[a-zA-Z0-9_-]+$/);

    const final = await client.chat.completions.create({
      model: provider.family,
      messages: [user, message, ...toolResults(calls)],
      tools: weatherTools,
    });
    expectSpecValid('CreateChatCompletionResponse', JSON.parse(JSON.stringify(final)));
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(final.choices[0]?.message.content).toContain('sunny');
    expect(final.choices[0]?.message.content).toContain('14:05');
    expect(provider.sawOwnFormat(sim)).toBe(true);
  });

  it('streamed: one index per call, id and name first, finish_reason once, usage chunk on request', async () => {
    const chunks = await collect(
      await client.chat.completions.create({
        model: provider.family,
        messages: [user],
        tools: weatherTools,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    for (const chunk of chunks) {
      expectSpecValid('CreateChatCompletionStreamResponse', JSON.parse(JSON.stringify(chunk)));
      expect(chunk.model).toBe(provider.family);
    }
    const streamed = reassembleToolCalls(chunks);
    expect(streamed.map((call) => call.index)).toEqual([0, 1]);
    for (const call of streamed) {
      expect(call.openedWithIdAndName).toBe(true);
      expect(call.nameDeltas).toBe(1);
      expect(() => JSON.parse(call.arguments)).not.toThrow();
    }
    const finishReasons = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason).filter(Boolean));
    expect(finishReasons).toEqual(['tool_calls']);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.total_tokens).toBeGreaterThan(0);

    const calls = streamed.map((call) => ({ id: call.id!, name: call.name!, arguments: call.arguments }));
    const assistant: MessageParam = {
      role: 'assistant',
      content: null,
      tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
    };
    const finalChunks = await collect(
      await client.chat.completions.create({
        model: provider.family,
        messages: [user, assistant, ...toolResults(calls)],
        tools: weatherTools,
        stream: true,
      }),
    );
    const text = finalChunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toContain('sunny');
    expect(finalChunks.some((chunk) => chunk.usage)).toBe(false);
    expect(provider.sawOwnFormat(sim)).toBe(true);
  });

  it('through a custom assistant whose tools the request does not send', async () => {
    const created = await fetch(`${e2e.url}/api/assistants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'g-weather1', name: 'Weather', instructions: 'You report weather.', tools: weatherTools }),
    });
    expect(created.status).toBe(201);
    const model = `${provider.family}-gizmo-g-weather1`;
    const first = await client.chat.completions.create({ model, messages: [user] });
    expect(first.model).toBe(model);
    const message = first.choices[0]!.message;
    const calls = (message.tool_calls ?? []).map((call) => {
      if (call.type !== 'function') throw new Error('expected a function call');
      return { id: call.id, name: call.function.name, arguments: call.function.arguments };
    });
    expect(calls).toHaveLength(2);
    const final = await client.chat.completions.create({ model, messages: [user, message, ...toolResults(calls)] });
    expect(final.choices[0]?.message.content).toContain('14:05');
    const rows = await e2e.usageRows(2);
    expect(rows.slice(-2).map((row) => row.assistantId)).toEqual(['g-weather1', 'g-weather1']);
    expect(provider.sawOwnFormat(sim)).toBe(true);
  });
});
