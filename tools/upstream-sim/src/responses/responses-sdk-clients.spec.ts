import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, Output, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { startUpstreamSim } from '../sim-server';
import { testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';

// The clients the relay's users run against the Responses API read the simulator as they read
// OpenAI: the official SDK (every route, its stream helper, its errors) and the Vercel AI SDK,
// whose `openai(...)` models speak the Responses API by default.

let sim: UpstreamSim;
let client: OpenAI;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
  client = new OpenAI({ apiKey: testKey, baseURL: sim.baseUrl, maxRetries: 0 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const weather = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

describe('official openai SDK', () => {
  it('creates, retrieves, lists input items of and deletes a response', async () => {
    const response = await client.responses.create({ model: 'gpt-4o', input: 'Hello SDK', metadata: { case: 'sdk' } });
    expect(response.output_text).toBe('You said: Hello SDK');
    expect(response.metadata).toEqual({ case: 'sdk' });
    const fetched = await client.responses.retrieve(response.id);
    expect(fetched.output_text).toBe('You said: Hello SDK');
    const items = [];
    for await (const item of client.responses.inputItems.list(response.id)) items.push(item);
    expect(items).toEqual([expect.objectContaining({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello SDK' }] })]);
    await client.responses.delete(response.id);
    await expect(client.responses.retrieve(response.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('runs a tool round trip over previous_response_id, streamed with the SDK helper', async () => {
    const first = await client.responses.create({ model: 'gpt-4o', input: 'get weather in Oslo', tools: [weather] });
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ name: 'get_weather', arguments: '{"city":"city value"}' });
    const stream = client.responses.stream({
      model: 'gpt-4o',
      previous_response_id: first.id,
      tools: [weather],
      input: [{ type: 'function_call_output', call_id: call?.type === 'function_call' ? call.call_id : '', output: 'rain' }],
    });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(final.output_text).toBe('Here is what I found: get_weather: rain.');
    expect(deltas.join('')).toBe(final.output_text);
    expect(final.previous_response_id).toBe(first.id);
  });

  it('cancels a background response, and reports previous_response_not_found as a NotFoundError', async () => {
    const queued = await client.responses.create({ model: 'gpt-4o', input: 'slowly [sim:latency=1000]', background: true });
    expect(queued.status).toBe('queued');
    expect((await client.responses.cancel(queued.id)).status).toBe('cancelled');
    const missing = client.responses.create({ model: 'gpt-4o', input: 'x', previous_response_id: 'resp_gone' });
    await expect(missing).rejects.toMatchObject({ status: 404, code: 'previous_response_not_found', param: 'previous_response_id' });
  });

  it('parses structured output (text.format json_schema) into an object', async () => {
    const parsed = await client.responses.parse({
      model: 'gpt-4o',
      input: 'forecast',
      text: {
        format: {
          type: 'json_schema',
          name: 'forecast',
          strict: true,
          schema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 3 } }, required: ['city', 'days'], additionalProperties: false },
        },
      },
    });
    expect(parsed.output_parsed).toEqual({ city: 'city value', days: 3 });
  });
});

describe('Vercel AI SDK (Responses API models)', () => {
  const provider = () => createOpenAI({ apiKey: testKey, baseURL: sim.baseUrl });

  it('generates text and streams it', async () => {
    const result = await generateText({ model: provider()('gpt-4o'), prompt: 'Hello AI SDK' });
    expect(result.text).toBe('You said: Hello AI SDK');
    expect(result.usage.outputTokens).toBe(5);
    const streamed = streamText({ model: provider()('gpt-4o'), prompt: 'Stream me' });
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    expect(text).toBe('You said: Stream me');
    expect((await streamed.finishReason)).toBe('stop');
    expect(sim.requests.filter((request) => request.path === '/v1/responses')).toHaveLength(2);
  });

  it('runs tools to an answer and reads a structured output', async () => {
    const result = await generateText({
      model: provider()('gpt-4o'),
      prompt: 'get weather please',
      tools: {
        get_weather: tool({
          description: 'Weather of a city',
          inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
          execute: async ({ city }) => `rain in ${city}`,
        }),
      },
      stopWhen: ({ steps }) => steps.length >= 2,
    });
    expect(result.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual(['get_weather']);
    expect(result.text).toBe('Here is what I found: get_weather: rain in city value.');

    const structured = await generateText({
      model: provider()('gpt-4o'),
      prompt: 'a city please',
      output: Output.object({ schema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }) }),
    });
    expect(structured.output).toEqual({ city: 'city value' });
  });
});
