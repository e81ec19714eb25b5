import { ApiError, GoogleGenAI } from '@google/genai';
import { embeddingVector, type UpstreamSim } from '@chat-relay/upstream-sim';
import { patchToken } from '../testing/patch-token';
import { openAiKind } from './anthropic-e2e';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { genaiClient, postGemini } from './gemini-e2e';
import { usageRowsFor } from './usage-rows-for';

/** The request id the relay answered with, for its usage row. */
const requestIdOf = (response: { sdkHttpResponse?: { headers?: Record<string, string> } }): string | undefined => response.sdkHttpResponse?.headers?.['x-request-id'];

/** The SDK's error for a call the relay refused. */
async function apiError(call: () => Promise<unknown>): Promise<ApiError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

/**
 * Issue 29 item 6: the Gemini-native routes beyond generation were 404. The real `@google/genai`
 * SDK's models.list, models.get, countTokens and embedContent against the relay, on a gemini
 * channel (its own count and vectors) and an OpenAI one (the relay's count, OpenAI's vectors).
 */
describe('e2e: @google/genai models, countTokens and embedContent through the relay', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;
  let genai: GoogleGenAI;

  beforeAll(async () => {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
    await e2e.addChannel(sim.geminiBaseUrl, { name: 'gemini', type: 'gemini', models: ['gemini-2.5-flash', 'text-embedding-004'] });
    await e2e.addChannel(openAiKind.baseUrl(sim), { name: 'openai', type: 'openai', models: ['gpt-4o', 'text-embedding-3-small', 'dall-e-3'] });
    genai = genaiClient(e2e);
  });
  afterAll(() => e2e.close());
  beforeEach(() => sim.reset());

  describe('models.list and models.get', () => {
    it('lists the models the Gemini routes can use, in Google’s shape, with the catalogue’s facts; no image model', async () => {
      const pager = await genai.models.list();
      const models = [];
      for await (const model of pager) models.push(model);
      expect(models.map((model) => model.name)).toEqual(['models/gemini-2.5-flash', 'models/gpt-4o', 'models/text-embedding-004', 'models/text-embedding-3-small']);
      expect(models[0]).toMatchObject({
        name: 'models/gemini-2.5-flash',
        displayName: 'Gemini 2.5 Flash',
        version: '001',
        inputTokenLimit: 1_048_576,
        outputTokenLimit: 65_536,
        // As /v1/models lists it: a channel whose upstream list was never synced serves each of its
        // models on every endpoint the channel serves, unless the name says otherwise.
        supportedActions: ['generateContent', 'countTokens', 'embedContent', 'batchEmbedContents'],
        thinking: true,
      });
      expect(models.find((model) => model.name === 'models/text-embedding-004')?.supportedActions).toEqual(['embedContent', 'batchEmbedContents']);
      expect(sim.requests).toEqual([]);
    });

    it('pages by pageSize and pageToken, as Google does', async () => {
      const pager = await genai.models.list({ config: { pageSize: 3 } });
      expect(pager.page.map((model) => model.name)).toEqual(['models/gemini-2.5-flash', 'models/gpt-4o', 'models/text-embedding-004']);
      expect(pager.hasNextPage()).toBe(true);
      const next = await pager.nextPage();
      expect(next.map((model) => model.name)).toEqual(['models/text-embedding-3-small']);
      expect(pager.hasNextPage()).toBe(false);
      const bad = await fetch(`${e2e.url}/v1beta/models?pageToken=nonsense`, { headers: { 'x-goog-api-key': e2e.token } });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
    });

    it('gets one model by name, and answers 404 NOT_FOUND for a model the key cannot use', async () => {
      const model = await genai.models.get({ model: 'gpt-4o' });
      expect(model).toMatchObject({ name: 'models/gpt-4o', inputTokenLimit: 128_000, outputTokenLimit: 16_384, supportedActions: expect.arrayContaining(['generateContent', 'countTokens']) });
      expect((await apiError(() => genai.models.get({ model: 'dall-e-3' }))).status).toBe(404);
      await patchToken(e2e.relay, e2e.tokenId, { models: ['gemini-*'] });
      try {
        expect((await apiError(() => genai.models.get({ model: 'gpt-4o' }))).status).toBe(404);
        const listed = [];
        for await (const listedModel of await genai.models.list()) listed.push(listedModel.name);
        expect(listed).toEqual(['models/gemini-2.5-flash']);
      } finally {
        await patchToken(e2e.relay, e2e.tokenId, { models: null });
      }
    });

    it('asks for the relay’s key, as every Gemini route does', async () => {
      const noKey = await fetch(`${e2e.url}/v1beta/models`);
      expect(noKey.status).toBe(401);
      expect(((await noKey.json()) as { error: { status: string } }).error.status).toBe('UNAUTHENTICATED');
      expect((await fetch(`${e2e.url}/v1beta/models/gpt-4o?key=${encodeURIComponent(e2e.token)}`)).status).toBe(200);
    });
  });

  describe('countTokens', () => {
    const contents = 'What is the weather in Paris today, and should I take an umbrella?';

    it('on a gemini channel: Google’s own count (the channel asked), its model mapped', async () => {
      const counted = await genai.models.countTokens({ model: 'gemini-2.5-flash', contents });
      const direct = (await (
        await fetch(`${sim.geminiBaseUrl}/models/gemini-2.5-flash:countTokens`, {
          method: 'POST',
          headers: { 'x-goog-api-key': 'sk-sim-key', 'content-type': 'application/json' },
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: contents }] }] }),
        })
      ).json()) as { totalTokens: number };
      expect(counted.totalTokens).toBe(direct.totalTokens);
      expect(sim.requests.map((request) => request.path)).toEqual(['/v1beta/models/gemini-2.5-flash:countTokens', '/v1beta/models/gemini-2.5-flash:countTokens']);
    });

    it('elsewhere: the relay’s tokenizer, no upstream call', async () => {
      const counted = await genai.models.countTokens({ model: 'gpt-4o', contents });
      expect(counted.totalTokens).toBeGreaterThan(5);
      expect(sim.requests).toEqual([]);
      // The relay's tokenizer loads on its first count: seconds on a busy machine.
    }, 20_000);

    it('a row of its own endpoint, no tokens, never charged', async () => {
      const counted = await genai.models.countTokens({ model: 'gemini-2.5-flash', contents });
      const [row] = await usageRowsFor(e2e, [requestIdOf(counted)]);
      expect(row).toMatchObject({ requestedModel: 'gemini-2.5-flash', status: 200, endpoint: 'count_tokens', promptTokens: 0, completionTokens: 0, cost: 0 });
    });

    it('nothing to count: 400 INVALID_ARGUMENT naming the field, as Google refuses it, nothing sent upstream', async () => {
      for (const body of [{}, { generateContentRequest: { contents: [] } }]) {
        const refused = await postGemini(e2e, 'gemini-2.5-flash:countTokens', body);
        expect(refused.status).toBe(400);
        const { error } = (await refused.json()) as { error: { status: string; message: string } };
        expect(error).toMatchObject({ status: 'INVALID_ARGUMENT', message: expect.stringContaining('contents') });
      }
      expect(sim.requests).toEqual([]);
    });

    it('counts with Bearer too, and a whole generateContentRequest (its system instruction counted)', async () => {
      const count = async (body: unknown) => {
        const response = await postGemini(e2e, 'gpt-4o:countTokens', body, { authorization: `Bearer ${e2e.token}` });
        expect(response.status).toBe(200);
        return ((await response.json()) as { totalTokens: number }).totalTokens;
      };
      const contents = [{ role: 'user', parts: [{ text: 'Hello there' }] }];
      const alone = await count({ contents });
      const withSystem = await count({ generateContentRequest: { model: 'models/gpt-4o', contents, systemInstruction: { parts: [{ text: 'You answer in long, careful French sentences.' }] } } });
      expect(withSystem).toBeGreaterThan(alone);
    });

    it('a model no channel serves: 404 NOT_FOUND in Google’s shape', async () => {
      expect((await apiError(() => genai.models.countTokens({ model: 'no-such-model', contents }))).status).toBe(404);
    });
  });

  describe('embedContent and batchEmbedContents', () => {
    it('on a gemini channel: Gemini’s vectors, one per content, in order (the SDK calls batchEmbedContents)', async () => {
      const answer = await genai.models.embedContent({ model: 'text-embedding-004', contents: ['hello world', 'good night'] });
      expect(answer.embeddings?.map((embedding) => embedding.values)).toEqual([embeddingVector('hello world', 768), embeddingVector('good night', 768)]);
      const [row] = await usageRowsFor(e2e, [requestIdOf(answer)]);
      expect(row).toMatchObject({ endpoint: 'embeddings', requestedModel: 'text-embedding-004', status: 200 });
      expect(row?.promptTokens).toBeGreaterThan(0);
    });

    it('on a gemini channel, taskType reaches Google as asked', async () => {
      await genai.models.embedContent({ model: 'text-embedding-004', contents: 'where is Paris?', config: { taskType: 'RETRIEVAL_QUERY' } });
      expect(sim.requests[0]?.body).toEqual({
        requests: [{ model: 'models/text-embedding-004', content: { parts: [{ text: 'where is Paris?' }] }, taskType: 'RETRIEVAL_QUERY' }],
      });
    });

    it('on an OpenAI channel: its vectors, outputDimensionality as dimensions, taskType left out', async () => {
      const config = { outputDimensionality: 64, taskType: 'RETRIEVAL_QUERY' };
      const answer = await genai.models.embedContent({ model: 'text-embedding-3-small', contents: 'hello world', config });
      expect(answer.embeddings?.map((embedding) => embedding.values)).toEqual([embeddingVector('hello world', 64)]);
      expect(sim.requests[0]).toMatchObject({ path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: ['hello world'], dimensions: 64 } });
      expect(sim.requests[0]?.body).not.toHaveProperty('task_type');
    });

    it(':embedContent answers one embedding', async () => {
      const response = await postGemini(e2e, 'text-embedding-3-small:embedContent', { content: { parts: [{ text: 'hello world' }] } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ embedding: { values: embeddingVector('hello world', 1536) } });
    });

    it('refuses a batch request naming another model, and a model that does not embed, as Google does', async () => {
      const mismatch = await postGemini(e2e, 'text-embedding-004:batchEmbedContents', { requests: [{ model: 'models/other', content: { parts: [{ text: 'x' }] } }] });
      expect(mismatch.status).toBe(400);
      expect(((await mismatch.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
      expect((await apiError(() => genai.models.embedContent({ model: 'dall-e-3', contents: 'x' }))).status).toBe(404);
      expect(sim.requests).toEqual([]);
    });
  });

  it('generateContent still answers on the same path, and a method no route serves is 404 NOT_FOUND', async () => {
    const answer = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Hello there' });
    expect(answer.text).toBe('You said: Hello there');
    const unknown = await postGemini(e2e, 'gemini-2.5-flash:predictLongRunning', { instances: [] });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { status: string; message: string } }).error).toMatchObject({ status: 'NOT_FOUND', message: expect.stringContaining('Method not found') });
  });
});
