import { AIMessageChunk, HumanMessage, type AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod/v4';
import { RESPONSES_MODEL, responsesChannelKinds, startResponsesRelay, type ResponsesE2e } from './responses-e2e';

/**
 * LangChain's `ChatOpenAI` with `useResponsesApi: true`: plain text, a tool round trip with
 * `bindTools`, and streaming, through the relay to every kind of channel (issue 13).
 */

type SentBody = { input?: Array<Record<string, unknown>>; [field: string]: unknown };

function chatOpenAi(e2e: ResponsesE2e, sent: SentBody[]): ChatOpenAI {
  const recording: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as SentBody);
    return fetch(input, init);
  };
  return new ChatOpenAI({
    model: RESPONSES_MODEL,
    apiKey: e2e.token,
    configuration: { baseURL: `${e2e.url}/v1`, fetch: recording },
    useResponsesApi: true,
    maxRetries: 0,
  });
}

const getWeather = tool(async ({ city }) => `rain in ${city}`, {
  name: 'get_weather',
  description: 'Current weather of a city',
  schema: z.object({ city: z.string() }),
});

describe.each(responsesChannelKinds)('LangChain ChatOpenAI (Responses API) on the relay, $name channel', (kind) => {
  let e2e: ResponsesE2e;
  let sent: SentBody[];
  beforeEach(async () => {
    e2e = await startResponsesRelay(kind);
    sent = [];
  });
  afterEach(() => e2e.close());

  it('invoke answers text, with usage', async () => {
    const answer = await chatOpenAi(e2e, sent).invoke('Hello there');
    expect(answer.text).toBe('You said: Hello there');
    const [row] = await e2e.usageRows(1);
    expect(answer.usage_metadata).toMatchObject({ input_tokens: row?.promptTokens, output_tokens: row?.completionTokens });
    expect(row?.completionTokens).toBeGreaterThan(0);
    // It went to /v1/responses, not chat completions.
    expect(sent).toHaveLength(1);
    expect(sent[0]?.['input']).toBeDefined();
  });

  it('continues a conversation by previous_response_id (a call option)', async () => {
    const model = chatOpenAi(e2e, sent);
    const first = await model.invoke('My name is Ada');
    const firstId = first.response_metadata['id'] as string | undefined;
    expect(firstId).toMatch(/^resp_/);
    const second = await model.invoke('What is my name?', { previous_response_id: firstId });
    expect(second.text).toBe('You said: What is my name?');
    expect(second.response_metadata['id']).not.toBe(firstId);
    expect(sent[1]?.['previous_response_id']).toBe(firstId);
    // The upstream saw the earlier turn (native: in its own store, which the simulator replays).
    const upstream = JSON.stringify(kind.calls(e2e.sim).at(-1)?.body);
    if (kind.native) expect(upstream).toContain(firstId);
    else expect(upstream).toContain('You said: My name is Ada');
  });

  it('bindTools: a tool call, its result sent back, and the answer from it', async () => {
    const model = chatOpenAi(e2e, sent).bindTools([getWeather]);
    const question = new HumanMessage('get weather in Oslo');
    const call = await model.invoke([question]);
    expect(call.tool_calls?.map((toolCall) => [toolCall.name, toolCall.args])).toEqual([['get_weather', { city: 'city value' }]]);
    const [toolCall] = call.tool_calls ?? [];
    if (!toolCall) throw new Error('no tool call');
    const result = await getWeather.invoke(toolCall);
    expect(result.tool_call_id).toBe(toolCall.id);
    const answer = await model.invoke([question, call, result]);
    expect(answer.text).toBe('Here is what I found: get_weather: rain in city value.');
    expect(answer.tool_calls ?? []).toEqual([]);
    expect(sent[1]?.input?.map((item) => item['type'])).toEqual(['message', 'function_call', 'function_call_output']);
    expect(kind.calls(e2e.sim)).toHaveLength(2);
  });

  it('streams text, and a streamed tool call (with a preamble) that round-trips', async () => {
    let text = '';
    let chunks = 0;
    for await (const chunk of await chatOpenAi(e2e, sent).stream('Stream me please')) {
      text += chunk.text;
      chunks += 1;
    }
    expect(chunks).toBeGreaterThan(2);
    expect(text).toBe('You said: Stream me please');

    const model = chatOpenAi(e2e, sent).bindTools([getWeather]);
    const question = new HumanMessage('get weather in Oslo [sim:preamble=on]');
    let gathered: AIMessageChunk | undefined;
    for await (const chunk of await model.stream([question])) gathered = gathered ? gathered.concat(chunk) : chunk;
    if (!gathered) throw new Error('nothing streamed');
    // Text and the call in one turn: both survive the stream.
    expect(gathered.text).not.toBe('');
    expect(gathered.tool_calls?.map((toolCall) => [toolCall.name, toolCall.args])).toEqual([['get_weather', { city: 'city value' }]]);
    const [toolCall] = gathered.tool_calls ?? [];
    if (!toolCall) throw new Error('no tool call');
    const answer: AIMessage = await model.invoke([question, gathered, await getWeather.invoke(toolCall)]);
    expect(answer.text).toBe('Here is what I found: get_weather: rain in city value.');
  });
});
