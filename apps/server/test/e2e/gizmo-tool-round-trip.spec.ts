import { AssistantWithUsageSchema } from '@chat-relay/contract';
import type OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { asJson, createAssistant, getAssistant, upstreamChats } from './gizmo-assistants';
import { expectSpecValid } from './openai-spec';
import { askForBoth, collect, functionCalls, reassembleToolCalls, runWeatherTool, weatherTools } from './weather-tools';

type MessageParam = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatCompletionMessageToolCall = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;
type CompletionUsage = OpenAI.CompletionUsage;

const GIZMO = 'gpt-4o-gizmo-g-weather1';
const INSTRUCTIONS = 'You look up weather and time with your tools.';
const system = { role: 'system', content: INSTRUCTIONS };
const user: MessageParam = { role: 'user', content: askForBoth };

const toolResults = (calls: readonly ChatCompletionMessageToolCall[]): MessageParam[] =>
  functionCalls(calls).map((call) => ({
    role: 'tool',
    tool_call_id: call.id ?? '',
    content: runWeatherTool(call.name ?? '', JSON.parse(call.arguments)),
  }));

interface RoundTrip {
  answer: string;
  /** The conversation the caller sent on the second leg. */
  conversation: MessageParam[];
  /** What the relay reported for each leg. */
  usages: CompletionUsage[];
}

describe('e2e: a tool round trip through an assistant whose tools the caller never sends', () => {
  let e2e: E2eRelayWithSim;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startRelayWithSim();
    client = e2e.client();
    await createAssistant(e2e, { id: 'g-weather1', name: 'Weather', instructions: INSTRUCTIONS, tools: weatherTools });
  });
  afterEach(() => e2e.close());

  async function nonStreamedRoundTrip(): Promise<RoundTrip> {
    const first = await client.chat.completions.create({ model: GIZMO, messages: [user] });
    expectSpecValid('CreateChatCompletionResponse', asJson(first));
    expect(first.model).toBe(GIZMO);
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    const assistant = first.choices[0]!.message;
    expect(functionCalls(assistant.tool_calls).map((call) => call.name)).toEqual(['get_weather', 'get_time']);

    const conversation = [user, assistant, ...toolResults(assistant.tool_calls ?? [])];
    const final = await client.chat.completions.create({ model: GIZMO, messages: conversation });
    expectSpecValid('CreateChatCompletionResponse', asJson(final));
    expect(final.model).toBe(GIZMO);
    expect(final.choices[0]?.finish_reason).toBe('stop');
    return { answer: final.choices[0]?.message.content ?? '', conversation, usages: [first.usage!, final.usage!] };
  }

  async function streamedRoundTrip(): Promise<RoundTrip> {
    const stream = { stream: true, stream_options: { include_usage: true } } as const;
    const firstChunks = await collect(await client.chat.completions.create({ model: GIZMO, messages: [user], ...stream }));
    const calls = reassembleToolCalls(firstChunks);
    expect(calls.map((call) => call.name)).toEqual(['get_weather', 'get_time']);
    const toolCalls: ChatCompletionMessageToolCall[] = calls.map((call) => ({
      id: call.id!,
      type: 'function',
      function: { name: call.name!, arguments: call.arguments },
    }));
    const conversation: MessageParam[] = [user, { role: 'assistant', content: null, tool_calls: toolCalls }, ...toolResults(toolCalls)];

    const finalChunks = await collect(await client.chat.completions.create({ model: GIZMO, messages: conversation, ...stream }));
    for (const chunk of [...firstChunks, ...finalChunks]) {
      expectSpecValid('CreateChatCompletionStreamResponse', asJson(chunk));
      expect(chunk.model).toBe(GIZMO);
    }
    const finishes = finalChunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean);
    expect(finishes).toEqual(['stop']);
    return {
      answer: finalChunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''),
      conversation,
      usages: [firstChunks.at(-1)!.usage!, finalChunks.at(-1)!.usage!],
    };
  }

  it.each([
    ['non-streamed', false],
    ['streamed', true],
  ])('%s: calls the assistant’s tools, then answers with their results; both legs logged with the assistant', async (_label, streamed) => {
    const { answer, conversation } = streamed ? await streamedRoundTrip() : await nonStreamedRoundTrip();

    expect(answer).toContain('"temperature":21');
    expect(answer).toContain('"time":"14:05"');
    expect(answer).toContain('get_weather');

    // Each leg: the family, the instructions first, the caller's messages as sent, the assistant's tools.
    const [first, final] = upstreamChats(e2e.sim.requests);
    expect(first).toMatchObject({ model: 'gpt-4o', messages: [system, asJson(user)], tools: asJson(weatherTools) });
    expect(final).toMatchObject({ model: 'gpt-4o', messages: asJson([system, ...conversation]), tools: asJson(weatherTools) });

    const rows = await e2e.usageRows(2);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        assistantId: 'g-weather1',
        requestedModel: GIZMO,
        upstreamModel: 'gpt-4o',
        status: 200,
        stream: streamed,
        channelId: e2e.channel.id,
      });
    }
  });

  it('GET /api/assistants/:id counts the requests just made and their tokens, and no one else’s', async () => {
    await createAssistant(e2e, { id: 'g-bystander', name: 'Bystander' });
    const before = await getAssistant(e2e, 'g-weather1');
    expect(before.usage).toEqual({ requests_30d: 0, prompt_tokens_30d: 0, completion_tokens_30d: 0, cache_read_tokens_30d: 0, cache_write_tokens_30d: 0 });

    const plain = await nonStreamedRoundTrip();
    const streamed = await streamedRoundTrip();
    // Neither a plain model nor another assistant counts for g-weather1.
    await client.chat.completions.create({ model: 'gpt-4o', messages: [user], tools: weatherTools });
    await client.chat.completions.create({ model: 'gpt-4o-gizmo-g-bystander', messages: [user] });
    await e2e.usageRows(6);

    const usages = [...plain.usages, ...streamed.usages];
    const after = await getAssistant(e2e, 'g-weather1');
    expect(AssistantWithUsageSchema.safeParse(after).success).toBe(true);
    expect(after).toMatchObject({ id: 'g-weather1', name: 'Weather', instructions: INSTRUCTIONS, account_id: 1 });
    expect(after.usage).toEqual({
      requests_30d: 4,
      prompt_tokens_30d: usages.reduce((sum, usage) => sum + usage.prompt_tokens, 0),
      completion_tokens_30d: usages.reduce((sum, usage) => sum + usage.completion_tokens, 0),
      // The simulator caches nothing.
      cache_read_tokens_30d: 0,
      cache_write_tokens_30d: 0,
    });
    expect(after.usage.prompt_tokens_30d).toBeGreaterThan(0);
    expect(after.usage.completion_tokens_30d).toBeGreaterThan(0);
    expect((await getAssistant(e2e, 'g-bystander')).usage.requests_30d).toBe(1);
  });
});
