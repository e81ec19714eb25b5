import { ChatCompletionChunkSchema, ChatCompletionSchema } from '@chat-relay/contract';
import { postAnthropic, postChat, postGemini, postResponses, readAll, sseData } from './sim-test-client';
import { startUpstreamSim } from './sim-server';
import type { UpstreamSim } from './sim-types';
import type { AnthropicMessageResponse } from './anthropic/anthropic-api';
import type { GenerateContentResponse } from './gemini/gemini-api';

// One conversation asked in the four wire formats must get the same calls, the same final
// text and the same completion token count: the formats share one brain.

const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 2 } } };
const question = 'get forecast and get time please';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim();
});
afterAll(() => sim.close());

interface Turn {
  calls: { name: string; args: unknown }[];
  text: string | null;
  completionTokens: number;
}

async function openAiTurn(results?: string[]): Promise<Turn> {
  const tools = [
    { type: 'function', function: { name: 'get_forecast', parameters: schema } },
    { type: 'function', function: { name: 'get_time' } },
  ];
  const messages: unknown[] = [{ role: 'user', content: question }];
  if (results) {
    const calls = [
      { id: 'call_a', type: 'function', function: { name: 'get_forecast', arguments: '{}' } },
      { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
    ];
    messages.push({ role: 'assistant', content: null, tool_calls: calls });
    messages.push(...calls.map((call, index) => ({ role: 'tool', tool_call_id: call.id, content: results[index] })));
  }
  const completion = ChatCompletionSchema.parse(await (await postChat(sim, { model: 'm', messages, tools })).json());
  const message = completion.choices[0]!.message;
  return {
    calls: (message.tool_calls ?? []).map((call) =>
      call.type === 'function' ? { name: call.function.name, args: JSON.parse(call.function.arguments) } : { name: '', args: null },
    ),
    text: message.content ?? null,
    completionTokens: completion.usage!.completion_tokens,
  };
}

async function anthropicTurn(results?: string[]): Promise<Turn> {
  const tools = [{ name: 'get_forecast', input_schema: schema }, { name: 'get_time', input_schema: { type: 'object' } }];
  const messages: unknown[] = [{ role: 'user', content: question }];
  if (results) {
    messages.push({
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_a', name: 'get_forecast', input: {} },
        { type: 'tool_use', id: 'toolu_b', name: 'get_time', input: {} },
      ],
    });
    messages.push({
      role: 'user',
      content: ['toolu_a', 'toolu_b'].map((id, index) => ({ type: 'tool_result', tool_use_id: id, content: results[index] })),
    });
  }
  const response = await postAnthropic(sim, { model: 'm', max_tokens: 100, messages, tools });
  const message = (await response.json()) as AnthropicMessageResponse;
  const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  return {
    calls: message.content.flatMap((block) => (block.type === 'tool_use' ? [{ name: block.name, args: block.input }] : [])),
    text: text.length > 0 ? text.join('') : null,
    completionTokens: message.usage.output_tokens,
  };
}

async function geminiTurn(results?: string[]): Promise<Turn> {
  const tools = [{ functionDeclarations: [{ name: 'get_forecast', parameters: schema }, { name: 'get_time' }] }];
  const contents: unknown[] = [{ role: 'user', parts: [{ text: question }] }];
  if (results) {
    contents.push({ role: 'model', parts: [{ functionCall: { name: 'get_forecast', args: {} } }, { functionCall: { name: 'get_time', args: {} } }] });
    contents.push({
      role: 'user',
      parts: ['get_forecast', 'get_time'].map((name, index) => ({ functionResponse: { name, response: { result: results[index] } } })),
    });
  }
  const response = (await (await postGemini(sim, { contents, tools })).json()) as GenerateContentResponse;
  const parts = response.candidates[0]!.content.parts;
  const text = parts.flatMap((part) => ('text' in part ? [part.text] : []));
  return {
    calls: parts.flatMap((part) => ('functionCall' in part ? [{ name: part.functionCall.name, args: part.functionCall.args }] : [])),
    text: text.length > 0 ? text.join('') : null,
    completionTokens: response.usageMetadata.candidatesTokenCount,
  };
}

async function responsesTurn(results?: string[]): Promise<Turn> {
  const tools = [
    { type: 'function', name: 'get_forecast', parameters: schema },
    { type: 'function', name: 'get_time' },
  ];
  const input: unknown[] = [{ role: 'user', content: question }];
  if (results) {
    input.push(
      { type: 'function_call', call_id: 'call_a', name: 'get_forecast', arguments: '{}' },
      { type: 'function_call', call_id: 'call_b', name: 'get_time', arguments: '{}' },
      ...['call_a', 'call_b'].map((id, index) => ({ type: 'function_call_output', call_id: id, output: results[index] })),
    );
  }
  const response = (await (await postResponses(sim, { model: 'm', input, tools })).json()) as {
    output: ({ type: 'function_call'; name: string; arguments: string } | { type: 'message'; content: { text: string }[] })[];
    usage: { output_tokens: number };
  };
  const text = response.output.flatMap((item) => (item.type === 'message' ? item.content.map((part) => part.text) : []));
  return {
    calls: response.output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, args: JSON.parse(item.arguments) }] : [])),
    text: text.length > 0 ? text.join('') : null,
    completionTokens: response.usage.output_tokens,
  };
}

describe('one brain, four wire formats', () => {
  it('makes the same parallel calls with the same arguments and token count', async () => {
    const openAi = await openAiTurn();
    expect(openAi.calls).toEqual([
      { name: 'get_forecast', args: { city: 'city value', days: 2 } },
      { name: 'get_time', args: {} },
    ]);
    expect(openAi.text).toBeNull();
    expect(await anthropicTurn()).toEqual(openAi);
    expect(await geminiTurn()).toEqual(openAi);
    expect(await responsesTurn()).toEqual(openAi);
  });

  it('answers the same tool results with the same text', async () => {
    const openAi = await openAiTurn(['cloudy', '09:30']);
    expect(openAi.text).toBe('Here is what I found: get_forecast: cloudy; get_time: 09:30.');
    expect(await anthropicTurn(['cloudy', '09:30'])).toEqual(openAi);
    expect(await geminiTurn(['cloudy', '09:30'])).toEqual(openAi);
    expect(await responsesTurn(['cloudy', '09:30'])).toEqual(openAi);
  });
});

describe('[sim:preamble=on] in the OpenAI format', () => {
  const body = {
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'get time [sim:preamble=on]' }],
    tools: [{ type: 'function', function: { name: 'get_time' } }],
  };

  it('puts the text in content next to the tool calls, counted in usage', async () => {
    const completion = ChatCompletionSchema.parse(await (await postChat(sim, body)).json());
    const choice = completion.choices[0]!;
    expect(choice.message.content).toBe('Let me call get_time.');
    expect(choice.message.tool_calls).toHaveLength(1);
    expect(choice.finish_reason).toBe('tool_calls');
    // get_time (3 tokens: get _ time) + {} (2) + the preamble's 4 word tokens.
    expect(completion.usage?.completion_tokens).toBe(9);
  });

  it('streams the text before the tool-call deltas', async () => {
    const { text } = await readAll(await postChat(sim, { ...body, stream: true }));
    const chunks = sseData(text).slice(0, -1).map((payload) => ChatCompletionChunkSchema.parse(JSON.parse(payload)));
    const kinds = chunks.map((chunk) => {
      const delta = chunk.choices[0]?.delta;
      if (delta?.tool_calls) return 'tool';
      return delta?.content ? 'text' : 'other';
    });
    expect(kinds.join(',')).toMatch(/^other,(text,)+(tool,)+other$/);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Let me call get_time.');
  });
});
