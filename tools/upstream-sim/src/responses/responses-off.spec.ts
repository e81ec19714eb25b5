import { ChatCompletionSchema, ErrorResponseSchema, ModelListSchema } from '@chat-relay/contract';
import { defaultOpenAiModels } from '../openai-models';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, postAnthropic, postChat, postResponses, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';

// A relay must be testable against an OpenAI-compatible upstream without the Responses API —
// by option, by a second base URL on the same simulator, or for one request.

const invalidUrl = (method: string, path: string) => ({
  error: { message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: null, code: null },
});
const ask = { model: 'gpt-4o', input: 'hi' };

describe('responsesApi option', () => {
  it.each([[false], [404]] as const)('responsesApi: %s answers every Responses route 404 Invalid URL, chat still works', async (setting) => {
    const sim = await startUpstreamSim({ responsesApi: setting });
    try {
      const created = await postResponses(sim, ask);
      expect(created.status).toBe(404);
      expect(await created.json()).toEqual(invalidUrl('POST', '/v1/responses'));
      const fetched = await callOpenAi(sim, 'GET', '/responses/resp_1/input_items');
      expect(fetched.status).toBe(404);
      expect(await fetched.json()).toEqual(invalidUrl('GET', '/v1/responses/resp_1/input_items'));
      const chat = await postChat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      expect(ChatCompletionSchema.parse(await chat.json()).choices[0]?.message.content).toBe('You said: hi');
      expect(sim.requests.map((request) => request.path)).toEqual(['/v1/responses', '/v1/responses/resp_1/input_items', '/v1/chat/completions']);
    } finally {
      await sim.close();
    }
  });

  it('responsesApi: 405 answers like a framework-based server: {"detail": "Method Not Allowed"}, even without a key', async () => {
    const sim = await startUpstreamSim({ responsesApi: 405, acceptedKeys: [testKey] });
    try {
      const response = await postResponses(sim, ask, { key: '' });
      expect(response.status).toBe(405);
      expect(await response.json()).toEqual({ detail: 'Method Not Allowed' });
    } finally {
      await sim.close();
    }
  });
});

describe('chatOnlyBaseUrl and [sim:responses=off]', () => {
  let sim: UpstreamSim;
  beforeAll(async () => {
    sim = await startUpstreamSim({ acceptedKeys: [testKey] });
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.reset());

  it('serves everything /v1 does under /chat-only/v1 but the Responses API, recorded under its own path', async () => {
    expect(sim.chatOnlyBaseUrl).toBe(`http://127.0.0.1:${sim.port}/chat-only/v1`);
    const base = sim.chatOnlyBaseUrl;
    const chat = await callOpenAi(sim, 'POST', '/chat/completions', { base, body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } });
    expect(ChatCompletionSchema.parse(await chat.json()).choices[0]?.message.content).toBe('You said: hi');
    const models = await callOpenAi(sim, 'GET', '/models', { base });
    expect(ModelListSchema.parse(await models.json()).data.map((model) => model.id)).toEqual(defaultOpenAiModels);
    const responses = await postResponses(sim, ask, { base });
    expect(responses.status).toBe(404);
    expect(await responses.json()).toEqual(invalidUrl('POST', '/v1/responses'));
    const refused = await callOpenAi(sim, 'POST', '/chat/completions', { base, key: 'sk-wrong', body: {} });
    expect(refused.status).toBe(401);
    await refused.text();
    const anthropic = await fetch(`${base}/messages`, {
      method: 'POST',
      headers: { 'x-api-key': testKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(anthropic.status).toBe(200);
    await anthropic.text();
    expect(sim.requests.map((request) => request.path)).toEqual([
      '/chat-only/v1/chat/completions',
      '/chat-only/v1/models',
      '/chat-only/v1/responses',
      '/chat-only/v1/chat/completions',
      '/chat-only/v1/messages',
    ]);
    // The native base URL of the same simulator keeps its Responses API.
    expect((await postResponses(sim, ask)).status).toBe(200);
  });

  it('[sim:responses=off] in the last user input turns the Responses API off for that request alone', async () => {
    const inputs: unknown[] = [
      'hello [sim:responses=off]',
      [{ role: 'user', content: [{ type: 'input_text', text: 'hello [sim:responses=off]' }] }],
    ];
    for (const input of inputs) {
      const off = await postResponses(sim, { model: 'gpt-4o', input }, { key: '' });
      expect(off.status).toBe(404);
      expect(await off.json()).toEqual(invalidUrl('POST', '/v1/responses'));
    }
    const viaBody = await postResponses(sim, { ...ask, x_sim: { responses: 'off' } });
    expect(viaBody.status).toBe(404);
    await viaBody.text();
    // An earlier user turn does not count, and the same simulator answers the next request.
    const earlier = await postResponses(sim, {
      model: 'gpt-4o',
      input: [
        { role: 'user', content: 'old [sim:responses=off]' },
        { role: 'user', content: 'new' },
      ],
    });
    expect(earlier.status).toBe(200);
    await earlier.text();
    // On Chat Completions the marker means nothing and is not echoed.
    const chat = await postChat(sim, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello [sim:responses=off]' }] });
    expect(ChatCompletionSchema.parse(await chat.json()).choices[0]?.message.content).toBe('You said: hello');
  });

  it('unknown Responses routes and methods answer 404 Invalid URL', async () => {
    for (const [method, path] of [
      ['GET', '/responses'],
      ['PUT', '/responses/resp_1'],
      ['POST', '/responses/resp_1/retry'],
    ] as const) {
      const response = await callOpenAi(sim, method, path, method === 'GET' ? {} : { body: {} });
      expect(response.status).toBe(404);
      expect(ErrorResponseSchema.parse(await response.json()).error.message).toBe(`Invalid URL (${method} /v1${path})`);
    }
  });
});

describe('Anthropic on the same simulator', () => {
  it('is not affected by responsesApi', async () => {
    const sim = await startUpstreamSim({ responsesApi: 404 });
    try {
      const response = await postAnthropic(sim, { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
      expect(response.status).toBe(200);
      await response.text();
    } finally {
      await sim.close();
    }
  });
});
