import { EmbeddingListSchema, ErrorResponseSchema, type EmbeddingList } from '@chat-relay/contract';
import { expectSpecValid, warmSpecChecker } from '../responses/testing/openai-spec-check';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { cosineSimilarity, embeddingFromBase64, embeddingVector } from './embedding-vector';

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function embed(body: Record<string, unknown>): Promise<EmbeddingList> {
  const response = await callOpenAi(sim, 'POST', '/embeddings', { body: { model: 'text-embedding-3-small', ...body } });
  expect(response.status).toBe(200);
  const json: unknown = await response.json();
  if (body['encoding_format'] !== 'base64') expectSpecValid('CreateEmbeddingResponse', json);
  return EmbeddingListSchema.parse(json);
}

const vectorOf = (list: EmbeddingList, index = 0): number[] => {
  const embedding = list.data[index]?.embedding;
  return typeof embedding === 'string' ? embeddingFromBase64(embedding) : (embedding ?? []);
};
const norm = (vector: number[]): number => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));

async function errorOf(body: Record<string, unknown>): Promise<{ status: number; error: unknown }> {
  const response = await callOpenAi(sim, 'POST', '/embeddings', { body });
  return { status: response.status, error: ErrorResponseSchema.parse(await response.json()).error };
}

describe('POST /v1/embeddings', () => {
  it('answers indented as api.openai.com does: two spaces, one number a line, `"model": "…"` spaced', async () => {
    const response = await callOpenAi(sim, 'POST', '/embeddings', { body: { model: 'text-embedding-3-small', input: 'hi' } });
    const text = await response.text();
    expect(text.startsWith('{\n  "object": "list",\n  "data": [\n    {\n')).toBe(true);
    expect(text).toContain('"model": "text-embedding-3-small"');
    expect(text).toMatch(/"embedding": \[\n {8}-?\d/);
  });

  it('answers a unit vector of 1536 float32 numbers, the same for the same text, with usage', async () => {
    const first = await embed({ input: 'The quick brown fox' });
    const again = await embed({ input: 'The quick brown fox' });
    expect(first).toMatchObject({ object: 'list', model: 'text-embedding-3-small', usage: { prompt_tokens: 4, total_tokens: 4 } });
    expect(first.data[0]).toMatchObject({ object: 'embedding', index: 0 });
    const vector = vectorOf(first);
    expect(vector).toHaveLength(1536);
    expect(norm(vector)).toBeCloseTo(1, 5);
    expect(vector.every((value) => Math.fround(value) === value)).toBe(true);
    expect(vectorOf(again)).toEqual(vector);
    expect(vector).toEqual(embeddingVector('The quick brown fox', 1536));
  });

  it('gives 3072 numbers for text-embedding-3-large and honours dimensions (the longer vector’s start, renormalised)', async () => {
    const large = await embed({ model: 'text-embedding-3-large', input: 'hello' });
    expect(vectorOf(large)).toHaveLength(3072);
    const short = vectorOf(await embed({ input: 'hello', dimensions: 256 }));
    expect(short).toHaveLength(256);
    expect(norm(short)).toBeCloseTo(1, 5);
    const full = vectorOf(await embed({ input: 'hello' }));
    expect(cosineSimilarity(short, full.slice(0, 256))).toBeCloseTo(1, 5);
  });

  it('makes texts that share words closer than texts that do not', async () => {
    const list = await embed({ input: ['red apple pie', 'apple pie recipe', 'quantum field theory'] });
    const [pie, recipe, physics] = [0, 1, 2].map((index) => vectorOf(list, index));
    expect(list.data.map((item) => item.index)).toEqual([0, 1, 2]);
    expect(cosineSimilarity(pie ?? [], recipe ?? [])).toBeGreaterThan(0.5);
    expect(Math.abs(cosineSimilarity(pie ?? [], physics ?? []))).toBeLessThan(0.2);
  });

  it('encodes base64 as little-endian float32 that decodes to the float answer', async () => {
    const floats = vectorOf(await embed({ input: 'base64 please' }));
    const encoded = await embed({ input: 'base64 please', encoding_format: 'base64' });
    expect(typeof encoded.data[0]?.embedding).toBe('string');
    const bytes = Buffer.from(String(encoded.data[0]?.embedding), 'base64');
    expect(bytes).toHaveLength(1536 * 4);
    expect(bytes.readFloatLE(0)).toBe(floats[0]);
    expect(vectorOf(encoded)).toEqual(floats);
  });

  it('embeds token ids and lists of token ids, counting one token per id', async () => {
    const one = await embed({ input: [101, 2023, 102] });
    expect(one.data).toHaveLength(1);
    expect(one.usage).toEqual({ prompt_tokens: 3, total_tokens: 3 });
    const many = await embed({ input: [[1, 2], [3]] });
    expect(many.data.map((item) => item.index)).toEqual([0, 1]);
    expect(many.usage.prompt_tokens).toBe(3);
    expect(vectorOf(many, 0)).toEqual(embeddingVector('1 2', 1536));
  });

  it('refuses an empty input, a list holding one and an empty list as OpenAI words it', async () => {
    const message = "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";
    for (const input of ['', ['a', ''], []]) {
      expect(await errorOf({ model: 'text-embedding-3-small', input })).toEqual({
        status: 400,
        error: { message, type: 'invalid_request_error', param: null, code: null },
      });
    }
  });

  it('refuses an unknown encoding_format, dimensions on ada-002 and more dimensions than the model has', async () => {
    expect(await errorOf({ model: 'text-embedding-3-small', input: 'x', encoding_format: 'md5' })).toEqual({
      status: 400,
      error: { message: "Invalid value for 'encoding_format' = md5. Supported values: ['float', 'base64'].", type: 'invalid_request_error', param: null, code: null },
    });
    expect(await errorOf({ model: 'text-embedding-ada-002', input: 'x', dimensions: 256 })).toMatchObject({
      status: 400,
      error: { message: 'This model does not support specifying dimensions.', param: 'dimensions' },
    });
    expect((await errorOf({ model: 'text-embedding-3-small', input: 'x', dimensions: 1537 })).status).toBe(400);
    expect((await errorOf({ input: 'x' })).error).toMatchObject({ message: "Missing required parameter: 'model'." });
  });

  it('reads directives from the input and leaves them out of the vector', async () => {
    const marked = await callOpenAi(sim, 'POST', '/embeddings', { body: { model: 'text-embedding-3-small', input: 'hello [sim:fault=status:429]' } });
    expect(marked.status).toBe(429);
    const plain = vectorOf(await embed({ input: 'hello [sim:latency=1]' }));
    expect(plain).toEqual(embeddingVector('hello', 1536));
  });
});
