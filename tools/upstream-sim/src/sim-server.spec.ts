import {
  ChatCompletionChunkSchema,
  ChatCompletionSchema,
  ErrorResponseSchema,
  ModelListSchema,
  type ChatCompletionChunk,
} from '@chat-relay/contract';
import { defaultOpenAiModels } from './openai-models';
import { postChat, readAll, sseData, testKey } from './sim-test-client';
import { startUpstreamSim } from './sim-server';
import type { UpstreamSim } from './sim-types';

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    },
  },
};
const timeTool = { type: 'function', function: { name: 'get_time' } };

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function streamChunks(body: Record<string, unknown>): Promise<{ chunks: ChatCompletionChunk[]; data: string[] }> {
  const response = await postChat(sim, { ...body, stream: true });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const { text, error } = await readAll(response);
  expect(error).toBeUndefined();
  const data = sseData(text);
  expect(data.at(-1)).toBe('[DONE]');
  const chunks = data.slice(0, -1).map((payload) => ChatCompletionChunkSchema.parse(JSON.parse(payload)));
  return { chunks, data };
}

describe('upstream-sim over HTTP', () => {
  it('answers a text request with a contract-valid chat.completion echoing the model', async () => {
    const response = await postChat(sim, { model: 'my-model', messages: [{ role: 'user', content: 'Hi there' }] });
    expect(response.status).toBe(200);
    const completion = ChatCompletionSchema.parse(await response.json());
    expect(completion).toMatchObject({ model: 'my-model', system_fingerprint: 'fp_sim' });
    expect(completion.id).toMatch(/^chatcmpl-sim/);
    expect(completion.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'You said: Hi there' },
      finish_reason: 'stop',
    });
    expect(completion.usage?.completion_tokens).toBe(4);
  });

  it('answers with parallel tool calls when several tools fit', async () => {
    const response = await postChat(sim, {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'get the weather and get the time' }],
      tools: [weatherTool, timeTool],
    });
    const completion = ChatCompletionSchema.parse(await response.json());
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls?.map((call) => (call as any).function.name)).toEqual(['get_weather', 'get_time']);
    expect(JSON.parse((choice?.message.tool_calls?.[0] as any)?.function.arguments ?? '')).toEqual({
      city: 'city value',
      unit: 'celsius',
    });
  });

  it('streams text one word token per chunk, role chunk first, finish chunk, then [DONE]', async () => {
    const { chunks } = await streamChunks({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hello world' }] });
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    const tokens = chunks.slice(1, -1).map((chunk) => chunk.choices[0]?.delta.content);
    expect(tokens).toEqual(['You', ' said:', ' Hello', ' world']);
    expect(chunks.at(-1)?.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('streams tool calls whose argument fragments reassemble by index into JSON', async () => {
    const { chunks } = await streamChunks({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'weather? time? get both' }],
      tools: [weatherTool, timeTool],
    });
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: null });
    const calls = new Map<number, { id?: string; name?: string; args: string }>();
    for (const delta of chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])) {
      const call = calls.get(delta.index) ?? { args: '' };
      call.id ??= delta.id;
      call.name ??= delta.function?.name;
      call.args += delta.function?.arguments ?? '';
      calls.set(delta.index, call);
    }
    expect([...calls.values()].map((call) => call.name)).toEqual(['get_weather', 'get_time']);
    expect(JSON.parse(calls.get(0)?.args ?? '')).toEqual({ city: 'city value', unit: 'celsius' });
    expect(JSON.parse(calls.get(1)?.args ?? '')).toEqual({});
    expect(calls.get(0)?.id).not.toBe(calls.get(1)?.id);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('sends a last usage chunk with no choices only when include_usage is set', async () => {
    const { chunks } = await streamChunks({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'count me' }],
      stream_options: { include_usage: true },
    });
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ completion_tokens: 4 });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('ends every chunk with OpenAI\'s obfuscation padding, of varying length, unless include_obfuscation is false', async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'pad me please' }], stream_options: { include_usage: true } };
    const { data } = await streamChunks(body);
    const paddings = data.slice(0, -1).map((payload) => /,"obfuscation":"([A-Za-z0-9]+)"\}$/.exec(payload)?.[1]);
    expect(paddings.every((padding) => padding !== undefined)).toBe(true);
    expect(new Set(paddings.map((padding) => padding?.length)).size).toBeGreaterThan(1);
    const without = await streamChunks({ ...body, stream_options: { include_usage: true, include_obfuscation: false } });
    expect(without.data.some((payload) => payload.includes('obfuscation'))).toBe(false);
  });

  it('answers after a tool result with a text using it', async () => {
    const response = await postChat(sim, {
      model: 'gpt-4o',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'get weather' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'rain' },
      ],
    });
    const completion = ChatCompletionSchema.parse(await response.json());
    expect(completion.choices[0]?.message.content).toBe('Here is what I found: get_weather: rain.');
  });

  it('answers 401 invalid_api_key for a missing or unknown key', async () => {
    for (const key of ['', 'sk-wrong']) {
      const response = await postChat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }, { key });
      expect(response.status).toBe(401);
      const body = ErrorResponseSchema.parse(await response.json());
      expect(body.error).toMatchObject({ type: 'invalid_request_error', param: null, code: 'invalid_api_key' });
    }
  });

  it('answers 400 for invalid JSON and for a schema violation naming the field', async () => {
    const badJson = await postChat(sim, '{"model": ');
    expect(badJson.status).toBe(400);
    expect(ErrorResponseSchema.parse(await badJson.json()).error.type).toBe('invalid_request_error');
    const badRole = await postChat(sim, { model: 'gpt-4o', messages: [{ role: 'robot', content: 'x' }] });
    expect(badRole.status).toBe(400);
    expect(ErrorResponseSchema.parse(await badRole.json()).error.param).toBe('messages[0].role');
  });

  it('lists the served models and answers 404 elsewhere', async () => {
    const headers = { authorization: `Bearer ${testKey}` };
    const models = ModelListSchema.parse(await (await fetch(`${sim.baseUrl}/models`, { headers })).json());
    expect(models.data.map((model) => model.id)).toEqual(defaultOpenAiModels);
    expect(models.data[0]?.owned_by).toBe('upstream-sim');
    const missing = await fetch(`${sim.baseUrl}/fine_tuning/jobs`, { method: 'POST', headers, body: '{}' });
    expect(missing.status).toBe(404);
    expect(ErrorResponseSchema.safeParse(await missing.json()).success).toBe(true);
  });

  it('records method, path, headers and parsed body of every request', async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'rec' }], x_sim: {}, extra_field: 1 };
    await (await postChat(sim, body)).text();
    await (await postChat(sim, 'not json')).text();
    expect(sim.requests).toHaveLength(2);
    expect(sim.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body });
    expect(sim.requests[0]?.headers['authorization']).toBe(`Bearer ${testKey}`);
    expect(sim.requests[1]?.body).toBe('not json');
  });

  it('keeps connections alive', async () => {
    const response = await postChat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    await response.text();
    expect(response.headers.get('connection')).toBe('keep-alive');
  });
});

describe('startUpstreamSim options', () => {
  it('serves the configured models, accepts any key without acceptedKeys, and closes with idle sockets', async () => {
    const own = await startUpstreamSim({ modelsServed: ['m-1'] });
    const headers = { authorization: 'Bearer anything' };
    const list = ModelListSchema.parse(await (await fetch(`${own.baseUrl}/models`, { headers })).json());
    expect(list.data.map((model) => model.id)).toEqual(['m-1']);
    expect(own.baseUrl).toBe(`http://127.0.0.1:${own.port}/v1`);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
