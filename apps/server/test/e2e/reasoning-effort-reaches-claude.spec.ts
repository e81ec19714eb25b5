import type OpenAI from 'openai';
import { responsesChannelKinds, RESPONSES_MODEL, startResponsesRelay, type ResponsesE2e } from './responses-e2e';

// Issue 29 item 3: `reasoning.effort` (Responses) was silently dropped on anthropic channels and
// `reasoning_effort` (Chat Completions) was a 400; Claude's thinking never reached the caller.

const anthropicKind = responsesChannelKinds.find((kind) => kind.name === 'anthropic')!;

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather in a city',
  strict: false,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const askWeather = 'Please get weather for Paris.';

type Reasoning = OpenAI.Responses.ResponseReasoningItem;
type SentMessage = { role: string; content: Array<Record<string, unknown>> | string };
type SentBody = { thinking?: unknown; max_tokens: number; messages: SentMessage[] };

const reasoningOf = (response: OpenAI.Responses.Response): Reasoning[] =>
  response.output.filter((item): item is Reasoning => item.type === 'reasoning');

describe('e2e: reasoning effort reaches Claude through an anthropic channel (openai SDK)', () => {
  let e2e: ResponsesE2e;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startResponsesRelay(anthropicKind);
    client = e2e.client();
  });
  afterEach(() => e2e.close());

  const sent = (index: number): SentBody => e2e.sim.requests.filter((request) => request.path === '/v1/messages')[index]?.body as SentBody;

  /** The first turn (a tool call, with thinking), then the next turn that sends it all back with the tool's result. */
  async function toolRoundTrip(alter: (item: Reasoning) => Reasoning = (item) => item) {
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: askWeather }];
    const settings = { model: RESPONSES_MODEL, tools: [weatherTool], reasoning: { effort: 'high' as const }, include: ['reasoning.encrypted_content' as const], store: false };
    const first = await client.responses.create({ ...settings, input });
    const call = first.output.find((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
    const back = first.output.map((item) => (item.type === 'reasoning' ? alter(item) : item)) as OpenAI.Responses.ResponseInputItem[];
    const next = client.responses.create({
      ...settings,
      input: [...input, ...back, { type: 'function_call_output', call_id: call!.call_id, output: '{"sky":"sunny"}' }],
    });
    return { first, next };
  }

  it('reasoning.effort high produces thinking, returned as a reasoning item; the next turn sends it back and is accepted', async () => {
    const { first, next } = await toolRoundTrip();
    expect(sent(0).thinking).toEqual({ type: 'enabled', budget_tokens: 24576 });
    const [reasoning] = reasoningOf(first);
    expect(reasoning?.summary[0]?.text).toMatch(/I should call get_weather/);
    expect(reasoning?.encrypted_content).toEqual(expect.any(String));
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);

    const second = await next;
    expect(second.status).toBe('completed');
    const assistant = sent(1).messages[1]!;
    expect(assistant.role).toBe('assistant');
    const blocks = assistant.content as Array<Record<string, unknown>>;
    expect(blocks.map((block) => block['type'])).toEqual(['thinking', 'tool_use']);
    expect(blocks[0]).toMatchObject({ thinking: reasoning?.summary[0]?.text });
  });

  it('stored: continued by previous_response_id, the stored reasoning goes back as the thinking block', async () => {
    const settings = { model: RESPONSES_MODEL, tools: [weatherTool], reasoning: { effort: 'low' as const } };
    const first = await client.responses.create({ ...settings, input: askWeather });
    const call = first.output.find((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call')!;
    const second = await client.responses.create({
      ...settings,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' }],
    });
    expect(second.status).toBe('completed');
    const blocks = sent(1).messages[1]!.content as Array<Record<string, unknown>>;
    expect(blocks.map((block) => block['type'])).toEqual(['thinking', 'tool_use']);
  });

  it('a reasoning item whose signature was altered is refused by Anthropic (the simulator), the caller told in its dialect', async () => {
    const tamper = (item: Reasoning): Reasoning => {
      const encoded = item.encrypted_content ?? '';
      const prefix = encoded.slice(0, encoded.lastIndexOf('.') + 1);
      const block = JSON.parse(Buffer.from(encoded.slice(prefix.length), 'base64url').toString('utf8')) as { signature: string };
      block.signature = `X${block.signature.slice(1)}`;
      return { ...item, encrypted_content: prefix + Buffer.from(JSON.stringify(block)).toString('base64url') };
    };
    const { next } = await toolRoundTrip(tamper);
    await expect(next).rejects.toMatchObject({ status: 400, error: { message: expect.stringContaining('Invalid `signature`') } });
  });

  it('Chat Completions: reasoning_effort is no longer a 400; the thinking comes back as reasoning_content with its signed block', async () => {
    const completion = await client.chat.completions.create({
      model: RESPONSES_MODEL,
      messages: [{ role: 'user', content: askWeather }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherTool.parameters ?? {} } }],
      reasoning_effort: 'low',
      max_tokens: 500,
    });
    expect(sent(0)).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 1524 });
    const message = completion.choices[0]!.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string; thinking_blocks?: unknown[] };
    expect(message.reasoning_content).toMatch(/I should call get_weather/);
    expect(message.thinking_blocks).toEqual([{ type: 'thinking', thinking: message.reasoning_content, signature: expect.any(String) }]);

    const call = message.tool_calls![0]!;
    const second = await client.chat.completions.create({
      model: RESPONSES_MODEL,
      messages: [
        { role: 'user', content: askWeather },
        message as OpenAI.ChatCompletionAssistantMessageParam,
        { role: 'tool', tool_call_id: call.id, content: '{"sky":"sunny"}' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherTool.parameters ?? {} } }],
      reasoning_effort: 'low',
      max_tokens: 500,
    });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    const blocks = sent(1).messages[1]!.content as Array<Record<string, unknown>>;
    expect(blocks.map((block) => block['type'])).toEqual(['thinking', 'tool_use']);
  });

  it('Chat Completions: a caller that drops the thinking on the next turn is still served (that turn without thinking)', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: weatherTool.parameters ?? {} } }];
    const first = await client.chat.completions.create({ model: RESPONSES_MODEL, messages: [{ role: 'user', content: askWeather }], tools, reasoning_effort: 'high' });
    const call = first.choices[0]!.message.tool_calls![0]!;
    const second = await client.chat.completions.create({
      model: RESPONSES_MODEL,
      messages: [
        { role: 'user', content: askWeather },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: '{"sky":"sunny"}' },
      ],
      tools,
      reasoning_effort: 'high',
    });
    expect(second.choices[0]?.finish_reason).toBe('stop');
    expect(sent(1).thinking).toBeUndefined();
  });

  it('streamed Responses: the reasoning item is done with encrypted_content before the call', async () => {
    const stream = await client.responses.create({
      model: RESPONSES_MODEL,
      input: askWeather,
      tools: [weatherTool],
      reasoning: { effort: 'medium' },
      stream: true,
    });
    const done: OpenAI.Responses.ResponseOutputItem[] = [];
    for await (const event of stream) if (event.type === 'response.output_item.done') done.push(event.item);
    expect(done.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect((done[0] as Reasoning).encrypted_content).toEqual(expect.any(String));
    expect(sent(0).thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
  });
});

describe('e2e: the same rule on a gemini channel (openai SDK)', () => {
  const geminiKind = responsesChannelKinds.find((kind) => kind.name === 'gemini')!;
  let e2e: ResponsesE2e;

  beforeEach(async () => {
    e2e = await startResponsesRelay(geminiKind);
  });
  afterEach(() => e2e.close());

  it('reasoning.effort high asks gemini-2.5-flash for its budget and the thoughts, which come back as a reasoning item; the next turn is accepted', async () => {
    const client = e2e.client();
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: askWeather }];
    const settings = { model: RESPONSES_MODEL, tools: [weatherTool], reasoning: { effort: 'high' as const }, store: false };
    const first = await client.responses.create({ ...settings, input });
    const sentConfig = (geminiKind.calls(e2e.sim)[0]?.body as { generationConfig?: { thinkingConfig?: unknown } }).generationConfig?.thinkingConfig;
    expect(sentConfig).toEqual({ thinkingBudget: 24576, includeThoughts: true });
    expect(first.output.map((item) => item.type)).toEqual(['reasoning', 'function_call']);
    expect(reasoningOf(first)[0]?.summary[0]?.text).toMatch(/I should call get_weather/);

    const call = first.output.find((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call')!;
    const second = await client.responses.create({
      ...settings,
      input: [...input, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' }],
    });
    expect(second.status).toBe('completed');
  });
});
