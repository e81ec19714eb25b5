import { GoogleGenAI, Modality } from '@google/genai';
import { embeddingVector } from '../endpoints/embedding-vector';
import { simPng } from '../endpoints/png';
import { readPng } from '../endpoints/testing/read-png';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, parseSse, postGemini, readAll, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { geminiImageTokens } from './gemini-image-answer';

let sim: UpstreamSim;
beforeAll(async () => {
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const call = (model: string, method: string, body: unknown, key = testKey): Promise<Response> =>
  fetch(`${sim.geminiBaseUrl}/models/${model}:${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-goog-api-key': key } : {}) },
    body: JSON.stringify(body),
  });
const get = (path: string, key = testKey): Promise<Response> => fetch(`${sim.geminiBaseUrl}${path}`, { headers: key ? { 'x-goog-api-key': key } : {} });
const content = (text: string) => ({ parts: [{ text }] });

type GeminiError = { error: { code: number; status: string; message: string } };

describe(':embedContent and :batchEmbedContents', () => {
  it('answers the vector OpenAI’s route gives the same text: 768 numbers for text-embedding-004, 3072 for gemini-embedding-001', async () => {
    const small = (await (await call('text-embedding-004', 'embedContent', { content: content('hello world') })).json()) as { embedding: { values: number[] } };
    expect(small.embedding.values).toEqual(embeddingVector('hello world', 768));
    const openAi = (await (await callOpenAi(sim, 'POST', '/embeddings', { body: { model: 'text-embedding-3-small', input: 'hello world', dimensions: 768 } })).json()) as {
      data: { embedding: number[] }[];
    };
    expect(openAi.data[0]?.embedding).toEqual(small.embedding.values);
    const large = (await (await call('gemini-embedding-001', 'embedContent', { content: content('x'), taskType: 'RETRIEVAL_QUERY' })).json()) as { embedding: { values: number[] } };
    expect(large.embedding.values).toHaveLength(3072);
    const short = (await (await call('gemini-embedding-001', 'embedContent', { content: content('x'), outputDimensionality: 128 })).json()) as { embedding: { values: number[] } };
    expect(short.embedding.values).toEqual(embeddingVector('x', 128));
  });

  it('embeds a batch, each request naming the URL’s model', async () => {
    const body = { requests: [{ model: 'models/text-embedding-004', content: content('one') }, { model: 'models/text-embedding-004', content: content('two'), outputDimensionality: 8 }] };
    const answer = (await (await call('text-embedding-004', 'batchEmbedContents', body)).json()) as { embeddings: { values: number[] }[] };
    expect(answer.embeddings).toEqual([{ values: embeddingVector('one', 768) }, { values: embeddingVector('two', 8) }]);
    const mismatch = await call('text-embedding-004', 'batchEmbedContents', { requests: [{ model: 'models/other', content: content('one') }] });
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as GeminiError).error.status).toBe('INVALID_ARGUMENT');
  });

  it('refuses a missing content, too many dimensions and a missing key as Gemini does', async () => {
    const missing = (await (await call('text-embedding-004', 'embedContent', {})).json()) as GeminiError;
    expect(missing.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: '* EmbedContentRequest.content: required field is not set.' });
    expect((await call('text-embedding-004', 'embedContent', { content: content('x'), outputDimensionality: 769 })).status).toBe(400);
    expect((await call('text-embedding-004', 'embedContent', { content: content('x') }, '')).status).toBe(403);
  });

  it('plays faults in Gemini’s error shape', async () => {
    const limited = await call('text-embedding-004', 'embedContent', { content: content('x [sim:fault=status:429]') });
    expect(((await limited.json()) as GeminiError).error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    sim.failNext({ kind: 'stream-error' });
    const overloaded = await call('imagen-4.0-generate-001', 'predict', { instances: [{ prompt: 'x' }] });
    expect(((await overloaded.json()) as GeminiError).error).toMatchObject({ code: 503, status: 'UNAVAILABLE' });
  });
});

describe(':countTokens', () => {
  it('counts contents as generateContent reports promptTokenCount for them, and a generateContentRequest instead when sent', async () => {
    const contents = [{ role: 'user', parts: [{ text: 'What is the weather in Paris today?' }] }];
    const counted = (await (await call('gemini-2.5-flash', 'countTokens', { contents })).json()) as { totalTokens: number };
    const answered = (await (await call('gemini-2.5-flash', 'generateContent', { contents })).json()) as { usageMetadata: { promptTokenCount: number } };
    expect(counted.totalTokens).toBe(answered.usageMetadata.promptTokenCount);
    const whole = { model: 'models/gemini-2.5-flash', contents, systemInstruction: { parts: [{ text: 'Answer in one long sentence.' }] } };
    const withSystem = (await (await call('gemini-2.5-flash', 'countTokens', { contents: [content('ignored')], generateContentRequest: whole })).json()) as { totalTokens: number };
    expect(withSystem.totalTokens).toBeGreaterThan(counted.totalTokens);
  });

  it('refuses a generateContentRequest without its model, nothing to count, and a missing key, as Gemini does', async () => {
    const noModel = await call('gemini-2.5-flash', 'countTokens', { generateContentRequest: { contents: [content('x')] } });
    expect(((await noModel.json()) as GeminiError).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect((await call('gemini-2.5-flash', 'countTokens', {})).status).toBe(400);
    expect((await call('gemini-2.5-flash', 'countTokens', { contents: [content('x')] }, '')).status).toBe(403);
  });
});

describe('Imagen :predict', () => {
  it('answers sampleCount PNGs (4 by default), the same for the same prompt', async () => {
    const predict = async (body: unknown) => (await (await call('imagen-4.0-generate-001', 'predict', body)).json()) as { predictions: { bytesBase64Encoded: string; mimeType: string }[] };
    const two = await predict({ instances: [{ prompt: 'a robot' }], parameters: { sampleCount: 2 } });
    expect(two.predictions).toHaveLength(2);
    expect(two.predictions.every((prediction) => prediction.mimeType === 'image/png')).toBe(true);
    expect(readPng(Buffer.from(two.predictions[0]?.bytesBase64Encoded ?? '', 'base64')).width).toBe(8);
    expect(two.predictions[0]?.bytesBase64Encoded).not.toBe(two.predictions[1]?.bytesBase64Encoded);
    const four = await predict({ instances: [{ prompt: 'a robot' }] });
    expect(four.predictions.slice(0, 2)).toEqual(two.predictions);
    expect(four.predictions).toHaveLength(4);
  });
});

describe('generateContent with responseModalities IMAGE', () => {
  const ask = { contents: [{ role: 'user', parts: [{ text: 'Draw a cat' }] }], generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } };

  it('answers a text part and an inlineData PNG, with IMAGE tokens in the usage', async () => {
    const response = await postGemini(sim, ask, { model: 'gemini-2.5-flash-image' });
    const answer = (await response.json()) as { candidates: { content: { parts: Record<string, { mimeType?: string; data?: string } | string>[] }; finishReason: string }[]; usageMetadata: Record<string, unknown> };
    const parts = answer.candidates[0]?.content.parts ?? [];
    expect(parts[0]).toEqual({ text: 'Here is an image of Draw a cat.' });
    expect(parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: simPng(JSON.stringify(['gemini-2.5-flash-image', 'Draw a cat'])).toString('base64') } });
    expect(answer.candidates[0]?.finishReason).toBe('STOP');
    expect(answer.usageMetadata).toMatchObject({
      candidatesTokenCount: geminiImageTokens + 9,
      candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: geminiImageTokens }, { modality: 'TEXT', tokenCount: 9 }],
    });
  });

  it('streams the text, then the image with the finish reason', async () => {
    const response = await postGemini(sim, { ...ask, generationConfig: { responseModalities: ['IMAGE'] } }, { model: 'gemini-2.5-flash-image', stream: true });
    const events = parseSse((await readAll(response)).text).map((event) => JSON.parse(event.data) as { candidates: { content: { parts: object[] }; finishReason?: string }[] });
    expect(events).toHaveLength(1);
    expect(events[0]?.candidates[0]).toMatchObject({ content: { parts: [{ inlineData: { mimeType: 'image/png' } }] }, finishReason: 'STOP' });
  });
});

describe('GET /v1beta/models', () => {
  it('lists models with their generation methods, in pages, and answers one by name', async () => {
    const list = (await (await get('/models')).json()) as { models: { name: string; supportedGenerationMethods: string[] }[]; nextPageToken?: string };
    const methods = Object.fromEntries(list.models.map((model) => [model.name, model.supportedGenerationMethods]));
    expect(methods).toMatchObject({
      'models/gemini-2.5-flash': ['generateContent', 'countTokens'],
      'models/text-embedding-004': ['embedContent', 'batchEmbedContents'],
      'models/gemini-embedding-001': ['embedContent', 'batchEmbedContents'],
      'models/imagen-4.0-generate-001': ['predict'],
      'models/gemini-2.5-flash-image': ['generateContent'],
    });
    expect(list.nextPageToken).toBeUndefined();
    const first = (await (await get('/models?pageSize=2')).json()) as { models: { name: string }[]; nextPageToken: string };
    const second = (await (await get(`/models?pageSize=2&pageToken=${first.nextPageToken}`)).json()) as { models: { name: string }[] };
    expect([...first.models, ...second.models].map((model) => model.name)).toEqual(list.models.slice(0, 4).map((model) => model.name));
    expect(await (await get('/models/imagen-4.0-generate-001')).json()).toMatchObject({ name: 'models/imagen-4.0-generate-001', supportedGenerationMethods: ['predict'] });
    expect((await get('/models/nope')).status).toBe(404);
    expect((await get('/models', '')).status).toBe(403);
  });
});

describe('@google/genai', () => {
  // Its own fetch: the SDK's default dispatcher lives on Node's global, which Jest's sandbox does not share.
  const client = () => new GoogleGenAI({ apiKey: testKey, httpOptions: { baseUrl: sim.geminiBaseUrl.replace(/\/v1beta$/, ''), fetch } });

  // Its generateImages (Imagen :predict) is Vertex-only in this version: :predict is checked over fetch above.
  it('embeds, draws through generateContent and lists models', async () => {
    const embedded = await client().models.embedContent({ model: 'text-embedding-004', contents: ['alpha', 'beta'], config: { outputDimensionality: 16 } });
    expect(embedded.embeddings?.map((embedding) => embedding.values)).toEqual([embeddingVector('alpha', 16), embeddingVector('beta', 16)]);
    const drawn = await client().models.generateContent({ model: 'gemini-2.5-flash-image', contents: 'a kite', config: { responseModalities: [Modality.TEXT, Modality.IMAGE] } });
    expect(drawn.candidates?.[0]?.content?.parts?.[0]?.text).toBe('Here is an image of a kite.');
    expect(drawn.candidates?.[0]?.content?.parts?.[1]?.inlineData?.mimeType).toBe('image/png');
    const names: string[] = [];
    for await (const model of await client().models.list()) names.push(model.name ?? '');
    expect(names).toContain('models/gemini-embedding-001');
  });
});
