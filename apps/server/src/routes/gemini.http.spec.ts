import { GeminiErrorResponseSchema, GeminiGenerateContentResponseSchema } from '@chat-relay/contract';
import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import request from 'supertest';
import { createToken } from '../../test/testing/system-api';
import { createTestRelay, type TestRelay } from '../../test/testing/test-relay';

const SIM_KEY = 'sk-sim-key';
const hello = { contents: [{ role: 'user', parts: [{ text: 'Hello there' }] }] };

/** A Gemini error answer: Google's shape by the contract, its code the HTTP status. */
function geminiError(response: request.Response) {
  const { error } = GeminiErrorResponseSchema.parse(response.body);
  expect(error.code).toBe(response.status);
  return error;
}

describe('POST /v1beta/models/{model}:{method} over HTTP', () => {
  let relay: TestRelay;
  let sim: UpstreamSim;
  let key: string;

  beforeAll(async () => {
    relay = await createTestRelay({ maxRetries: 0 });
    sim = await startUpstreamSim({ acceptedKeys: [SIM_KEY] });
    key = (await createToken(relay, { name: 'gemini caller' })).key;
    const channels = [
      {
        name: 'gemini',
        type: 'gemini',
        base_url: sim.geminiBaseUrl,
        models: ['native-model'],
        model_mapping: { 'native-model': 'gemini-2.5-flash' },
        // Google Search runs on the channel's account: let through, and priced per grounded prompt below.
        passthrough: { hosted_tools: ['web_search'] },
      },
      { name: 'openai', type: 'openai', base_url: sim.baseUrl, models: ['bridged-model'], model_mapping: { 'bridged-model': 'gpt-4o' } },
    ];
    for (const channel of channels) {
      await request(relay.app).post('/api/channels').set('authorization', `Bearer ${relay.adminKey}`).send({ ...channel, keys: [SIM_KEY] }).expect(201);
    }
    const price = { model: 'native-model', input: 300_000, output: 2_500_000, tool_calls: { web_search: 35_000 } };
    await request(relay.app).put('/api/prices').set('authorization', `Bearer ${relay.adminKey}`).send({ data: [price] }).expect(200);
  });
  afterAll(async () => {
    await relay.close();
    await sim.close();
  });
  beforeEach(() => sim.reset());

  const post = (target: string, body: unknown = hello) => request(relay.app).post(`/v1beta/models/${target}`).set('x-goog-api-key', key).send(body as object);

  describe('the key', () => {
    it.each([
      ['x-goog-api-key', (call: request.Test) => call.set('x-goog-api-key', key)],
      ['Authorization: Bearer', (call: request.Test) => call.set('authorization', `Bearer ${key}`)],
      ['?key=', (call: request.Test) => call.query({ key })],
    ])('is read from %s', async (_where, withKey) => {
      const response = await withKey(request(relay.app).post('/v1beta/models/bridged-model:generateContent').send(hello)).expect(200);
      expect(GeminiGenerateContentResponseSchema.parse(response.body).modelVersion).toBe('bridged-model');
    });

    it('missing: 401 UNAUTHENTICATED in Google’s shape, saying where a key goes', async () => {
      const response = await request(relay.app).post('/v1beta/models/bridged-model:generateContent').send(hello).expect(401);
      const error = geminiError(response);
      expect(error.status).toBe('UNAUTHENTICATED');
      expect(error.message).toContain('x-goog-api-key');
      expect(sim.requests).toHaveLength(0);
    });

    it('wrong, in any place: 401 UNAUTHENTICATED, and the key never echoed', async () => {
      for (const call of [
        request(relay.app).post('/v1beta/models/bridged-model:generateContent').set('x-goog-api-key', 'sk-wrong-key-123'),
        request(relay.app).post('/v1beta/models/bridged-model:generateContent').query({ key: 'sk-wrong-key-123' }),
      ]) {
        const response = await call.send(hello).expect(401);
        expect(geminiError(response).status).toBe('UNAUTHENTICATED');
        expect(response.text).not.toContain('sk-wrong-key-123');
      }
    });

    it('x-goog-api-key and ?key= are the Gemini routes’ only: the OpenAI routes do not read them', async () => {
      await request(relay.app).get('/v1/models').set('x-goog-api-key', key).expect(401);
      await request(relay.app).get('/v1/models').query({ key }).expect(401);
    });
  });

  describe('errors in Google’s shape', () => {
    it('an unknown model: 404 NOT_FOUND', async () => {
      const error = geminiError(await post('no-such-model:generateContent').expect(404));
      expect(error).toMatchObject({ status: 'NOT_FOUND', message: expect.stringContaining("'no-such-model'") });
    });

    it.each([
      [{}, 'contents'],
      [{ contents: [] }, 'contents'],
      [{ contents: [{ role: 'assistant', parts: [{ text: 'Hi' }] }] }, 'contents[0].role'],
      [{ contents: [{ parts: [{ text: 'Hi' }] }], generationConfig: { temperature: 'hot' } }, 'generationConfig.temperature'],
    ])('a malformed body %j: 400 INVALID_ARGUMENT naming %s', async (body, field) => {
      const error = geminiError(await post('bridged-model:generateContent', body).expect(400));
      expect(error.status).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain(field);
      expect(error.details).toContainEqual({ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description: error.message }] });
    });

    it('a body that is not JSON: 400 INVALID_ARGUMENT', async () => {
      const response = await request(relay.app).post('/v1beta/models/bridged-model:generateContent').set('x-goog-api-key', key).set('content-type', 'application/json').send('{nope').expect(400);
      expect(geminiError(response).status).toBe('INVALID_ARGUMENT');
    });

    it('a method the relay does not serve: 404 NOT_FOUND, whatever the body', async () => {
      for (const body of [{ content: { parts: [{ text: 'x' }] } }, hello]) {
        const error = geminiError(await post('bridged-model:predictLongRunning', body).expect(404));
        expect(error.message).toContain('bridged-model:predictLongRunning');
      }
    });

    it('paths no route matches under /v1beta: 401 without a key, then 404 NOT_FOUND, Google’s shape both', async () => {
      geminiError(await request(relay.app).get('/v1beta/models').expect(401));
      const missing = await request(relay.app).get('/v1beta/cachedContents').set('x-goog-api-key', key).expect(404);
      expect(geminiError(missing).status).toBe('NOT_FOUND');
      geminiError(await request(relay.app).post('/v1beta/tunedModels/x:generateContent').query({ key }).send(hello).expect(404));
    });

    it('what only a Gemini channel serves, asked of a bridged model: 400 naming the field, nothing sent upstream', async () => {
      const error = geminiError(await post('bridged-model:generateContent', { ...hello, tools: [{ googleSearch: {} }] }).expect(400));
      expect(error).toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining("'tools[0].googleSearch' can only be served by a Gemini channel") });
      expect(sim.requests).toHaveLength(0);
    });

    it('alt other than json or sse: 400 naming alt', async () => {
      const response = await request(relay.app).post('/v1beta/models/bridged-model:streamGenerateContent').query({ alt: 'proto', key }).send(hello).expect(400);
      expect(geminiError(response).message).toContain('alt=proto');
    });

    it('an upstream failure mid-stream: the SSE stream ends with one data event holding the error', async () => {
      const body = { contents: [{ parts: [{ text: 'Hello [sim:fault=stream-error]' }] }] };
      for (const model of ['bridged-model', 'native-model']) {
        const response = await post(`${model}:streamGenerateContent?alt=sse`, body).expect(200);
        const events = response.text.split('\n\n').filter((event) => event !== '');
        const last = JSON.parse(events.at(-1)?.replace(/^data: /, '') ?? '') as unknown;
        expect(GeminiErrorResponseSchema.parse(last).error).toMatchObject({ code: 502, status: 'UNAVAILABLE' });
        expect(response.text).not.toContain('[DONE]');
        expect(response.text).not.toMatch(/^event:/m);
      }
    });
  });

  describe('passthrough to a gemini channel', () => {
    it('the caller’s bytes go upstream as sent, to the mapped model, with the channel’s key; modelVersion comes back as the caller’s', async () => {
      const raw = '{"contents":[{"role":"user","parts":[{"text":"Hello there"}]}],  "generation_config":{"max_output_tokens":50},"safetySettings":[]}';
      const response = await request(relay.app)
        .post('/v1beta/models/native-model:generateContent')
        .query({ key })
        .set('content-type', 'application/json')
        .send(raw)
        .expect(200);
      expect(response.body).toMatchObject({ modelVersion: 'native-model', candidates: [{ content: { parts: [{ text: 'You said: Hello there' }] } }] });
      const [call] = sim.requests;
      expect(call?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
      // As sent: the proto names stay (the relay itself reads them as generationConfig.maxOutputTokens).
      expect(call?.body).toEqual(JSON.parse(raw));
      expect(call?.headers['x-goog-api-key']).toBe(SIM_KEY);
      // The relay's key, given in the URL, goes no further.
      expect(JSON.stringify(call)).not.toContain(key);
    });

    it('what only Gemini serves passes through to a gemini channel that lets it through', async () => {
      await post('native-model:generateContent', { ...hello, tools: [{ googleSearch: {} }] }).expect(200);
      expect(sim.requests).toHaveLength(1);
    });

    it('a Google tool the channel does not let through is refused in Google’s shape, naming it, before any upstream call', async () => {
      const response = await post('native-model:generateContent', { ...hello, tools: [{ codeExecution: {} }] }).expect(400);
      expect(geminiError(response)).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      expect(geminiError(response).message).toContain("'codeExecution'");
      expect(sim.requests).toHaveLength(0);
    });
  });

  describe('streams', () => {
    it.each(['native-model', 'bridged-model'])('%s with alt=sse: text/event-stream of data events, each a GenerateContentResponse', async (model) => {
      const response = await post(`${model}:streamGenerateContent?alt=sse`).expect(200);
      expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      const events = response.text.split('\n\n').filter((event) => event !== '');
      const answers = events.map((event) => GeminiGenerateContentResponseSchema.parse(JSON.parse(event.replace(/^data: /, ''))));
      const text = answers.flatMap((answer) => answer.candidates?.[0]?.content?.parts ?? []).map((part) => part.text ?? '').join('');
      expect(text).toBe('You said: Hello there');
      expect(answers.at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { promptTokenCount: expect.any(Number) }, modelVersion: model });
    });

    it.each(['native-model', 'bridged-model'])('%s without alt: one JSON array, application/json', async (model) => {
      const response = await post(`${model}:streamGenerateContent`).expect(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const answers = (JSON.parse(response.text) as unknown[]).map((answer) => GeminiGenerateContentResponseSchema.parse(answer));
      expect(answers.length).toBeGreaterThan(1);
      expect(answers.at(-1)?.candidates?.[0]?.finishReason).toBe('STOP');
    });
  });
});
