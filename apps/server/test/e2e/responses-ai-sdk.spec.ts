import { createOpenAI } from '@ai-sdk/openai';
import { generateObject, generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod/v4';
import { RESPONSES_MODEL, responsesChannelKinds, startResponsesRelay, type ResponsesE2e } from './responses-e2e';

/**
 * The Vercel AI SDK's `openai(model)` speaks the Responses API: its multi-step tool loop, its
 * text stream and its structured output, through the relay to every kind of channel (issue 13).
 */

/** Each request body the AI SDK sent to the relay, in order: what it puts in `input`. */
type SentBody = { input?: Array<Record<string, unknown>>; [field: string]: unknown };

function aiSdkOn(e2e: ResponsesE2e, sent: SentBody[]) {
  const recording: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as SentBody);
    return fetch(input, init);
  };
  return createOpenAI({ apiKey: e2e.token, baseURL: `${e2e.url}/v1`, fetch: recording })(RESPONSES_MODEL);
}

const weatherTool = tool({
  description: 'Current weather of a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => `rain in ${city}`,
});

describe.each(responsesChannelKinds)('AI SDK on the relay, $name channel', (kind) => {
  let e2e: ResponsesE2e;
  let sent: SentBody[];
  beforeEach(async () => {
    e2e = await startResponsesRelay(kind);
    sent = [];
  });
  afterEach(() => e2e.close());

  it('generateText runs a tool step and ends in text (stopWhen: stepCountIs(3))', async () => {
    const result = await generateText({
      model: aiSdkOn(e2e, sent),
      prompt: 'get weather in Oslo',
      tools: { get_weather: weatherTool },
      stopWhen: stepCountIs(3),
    });
    // The model called the tool, the SDK ran it, the model answered from its result: two steps.
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.finishReason).toBe('tool-calls');
    expect(result.steps[0]?.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['get_weather', { city: 'city value' }]]);
    expect(result.steps[0]?.toolResults.map((toolResult) => toolResult.output)).toEqual(['rain in city value']);
    expect(result.finishReason).toBe('stop');
    expect(result.text).toBe('Here is what I found: get_weather: rain in city value.');
    // The second request carried the call and its output back.
    expect(sent).toHaveLength(2);
    expect(sent[1]?.input?.map((item) => item['type'] ?? item['role'])).toEqual(['user', 'function_call', 'function_call_output']);
    expect(kind.calls(e2e.sim)).toHaveLength(2);
    const rows = await e2e.usageRows(2);
    expect(rows.map((row) => row.status)).toEqual([200, 200]);
  });

  it('generateText with text and a call in one step: the SDK refers back to the text item by id', async () => {
    // [sim:preamble=on]: the first step is a message AND a function call; the AI SDK then sends the
    // message back as an item_reference (store is on), which the relay must resolve.
    const result = await generateText({
      model: aiSdkOn(e2e, sent),
      prompt: 'get weather in Oslo [sim:preamble=on]',
      tools: { get_weather: weatherTool },
      stopWhen: stepCountIs(3),
    });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.text).not.toBe('');
    expect(result.steps[0]?.toolCalls).toHaveLength(1);
    expect(result.text).toBe('Here is what I found: get_weather: rain in city value.');
    expect(sent[1]?.input?.some((item) => item['type'] === 'item_reference')).toBe(true);
  });

  it('the same with providerOptions.openai.store false: the text goes back whole, no reference', async () => {
    const result = await generateText({
      model: aiSdkOn(e2e, sent),
      prompt: 'get weather in Oslo [sim:preamble=on]',
      tools: { get_weather: weatherTool },
      stopWhen: stepCountIs(3),
      providerOptions: { openai: { store: false } },
    });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.text).not.toBe('');
    expect(result.text).toBe('Here is what I found: get_weather: rain in city value.');
    expect(sent[1]?.input?.map((item) => item['type'] ?? item['role'])).toEqual(['user', 'assistant', 'function_call', 'function_call_output']);
  });

  it('streamText: the text deltas are the final text, with finish reason and usage', async () => {
    const result = streamText({ model: aiSdkOn(e2e, sent), prompt: 'Stream me a short answer' });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    const text = await result.text;
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(text);
    expect(text).toBe('You said: Stream me a short answer');
    expect(await result.finishReason).toBe('stop');
    const usage = await result.usage;
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, stream: true, usageEstimated: false });
    expect(usage.outputTokens).toBeGreaterThan(0);
    expect(usage.inputTokens).toBe(row?.promptTokens);
    expect(usage.outputTokens).toBe(row?.completionTokens);
    expect(sent[0]?.['stream']).toBe(true);
  });

  it('streamText runs the tool loop too, and a later call continues by previousResponseId', async () => {
    const result = streamText({ model: aiSdkOn(e2e, sent), prompt: 'get weather in Oslo', tools: { get_weather: weatherTool }, stopWhen: stepCountIs(3) });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('Here is what I found: get_weather: rain in city value.');
    expect((await result.steps).map((step) => step.finishReason)).toEqual(['tool-calls', 'stop']);
    const responseId = (await result.providerMetadata)?.['openai']?.['responseId'];
    expect(responseId).toMatch(/^resp_/);

    const next = await generateText({
      model: aiSdkOn(e2e, sent),
      prompt: 'And tomorrow?',
      providerOptions: { openai: { previousResponseId: String(responseId) } },
    });
    expect(next.text).toBe('You said: And tomorrow?');
    expect(sent.at(-1)?.['previous_response_id']).toBe(responseId);
    // The whole earlier exchange reached the upstream (native: from its own store).
    const upstream = JSON.stringify(kind.calls(e2e.sim).at(-1)?.body);
    if (kind.native) expect(upstream).toContain(String(responseId));
    else expect(upstream).toContain('rain in city value');
  });

  it('generateObject with a zod schema gets a schema-valid object', async () => {
    const schema = z.object({ city: z.string(), days: z.number().int().min(3), units: z.enum(['metric', 'imperial']) });
    const result = await generateObject({ model: aiSdkOn(e2e, sent), schema, prompt: 'A forecast please' });
    expect(schema.parse(result.object)).toEqual(result.object);
    expect(result.object).toEqual({ city: 'city value', days: 3, units: 'metric' });
    expect(result.finishReason).toBe('stop');
    const format = (sent[0]?.['text'] as { format?: { type: string } } | undefined)?.format;
    expect(format?.type).toBe('json_schema');
  });
});
