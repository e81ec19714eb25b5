import { EmbeddingListSchema, EmbeddingRequestSchema } from '@chat-relay/contract';
import { embeddingsAsTheSdkReadsThem, jsonAnswer, sentJson } from '../../openai-endpoints/testing/media-fixtures';
import { geminiEmbeddingsAdapter } from './gemini-embeddings-adapter';
import { expectOpenAiValid } from '../testing/expect-openai-valid';
import { GEMINI_CHANNEL } from '../testing/gemini-channel';

const build = (fields: Record<string, unknown>, upstreamModel = 'gemini-embedding-001') =>
  geminiEmbeddingsAdapter.buildRequest({
    channel: { baseUrl: `${GEMINI_CHANNEL.baseUrl}/` },
    key: 'AIzaTestKey',
    request: EmbeddingRequestSchema.parse({ model: 'my-embedder', ...fields }),
    upstreamModel,
  });

const convert = (answer: unknown, fields: Record<string, unknown>) =>
  geminiEmbeddingsAdapter.convertResponse(JSON.stringify(answer), {
    request: EmbeddingRequestSchema.parse({ model: 'my-embedder', ...fields }),
    publicModel: 'my-embedder',
    contentType: 'application/json',
  });

const vectors = [
  [0.011, -0.25, 0.5],
  [0.75, 0.125, -1e-7],
  [3.4e38, -0.1, 0],
];

describe('geminiEmbeddingsAdapter.buildRequest', () => {
  it('asks batchEmbedContents for each input in order, the key in a header, dimensions as outputDimensionality', () => {
    const built = build({ input: ['first', 'second'], dimensions: 256, user: 'u-1' }, 'models/gemini-embedding-001');
    expect(built.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(built.headers).toEqual({ 'x-goog-api-key': 'AIzaTestKey', 'content-type': 'application/json' });
    expect(built.url).not.toContain('AIza');
    expect(sentJson(built)).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'first' }] }, outputDimensionality: 256 },
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'second' }] }, outputDimensionality: 256 },
      ],
    });
  });

  it('sends one string as one request, without dimensions when none were asked', () => {
    expect(sentJson(build({ input: 'only', encoding_format: 'base64' }))).toEqual({
      requests: [{ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'only' }] } }],
    });
  });

  it('sends task_type as each request’s taskType, and refuses one Gemini does not know', () => {
    expect(sentJson(build({ input: ['q'], task_type: 'RETRIEVAL_QUERY' }))).toEqual({
      requests: [{ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'q' }] }, taskType: 'RETRIEVAL_QUERY' }],
    });
    expect(() => build({ input: 'q', task_type: 'SEARCH' })).toThrow(expect.objectContaining({ status: 400, param: 'task_type' }));
  });

  it.each([
    ['token ids', { input: [101, 2023, 102] }, 'input'],
    ['lists of token ids', { input: [[101], [102]] }, 'input'],
    ['a field Gemini has no counterpart for', { input: 'x', input_type: 'query' }, 'input_type'],
  ])('refuses %s with a 400 naming it', (_name, fields, param) => {
    expect(() => build(fields)).toThrow(expect.objectContaining({ status: 400, param }));
  });
});

describe('geminiEmbeddingsAdapter.convertResponse', () => {
  const answer = { embeddings: vectors.map((values) => ({ values })) };
  const input = ['one', 'two', 'three'];

  it('lists the vectors in the inputs’ order with the caller’s model, and leaves the tokens to the relay', () => {
    const converted = jsonAnswer(convert(answer, { input }));
    expectOpenAiValid('CreateEmbeddingResponse', converted.body);
    expect(EmbeddingListSchema.parse(converted.body)).toEqual({
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: 'my-embedder',
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
    expect(converted.usage).toEqual({ promptTokens: 0, completionTokens: 0, units: 0, estimated: true, uncountedText: 'one\ntwo\nthree' });
  });

  it('sends base64 when asked, and the OpenAI SDK decodes it back to the floats (float32 precision)', async () => {
    const converted = jsonAnswer(convert(answer, { input, encoding_format: 'base64' }));
    const data = EmbeddingListSchema.parse(converted.body).data;
    expect(data.every(({ embedding }) => typeof embedding === 'string')).toBe(true);
    const decoded = await embeddingsAsTheSdkReadsThem(converted.body);
    expect(decoded).toHaveLength(vectors.length);
    decoded.forEach((vector, index) =>
      vector.forEach((value, at) => {
        const sent = vectors[index]?.[at] ?? NaN;
        expect(value).toBe(Math.fround(sent));
        expect(Math.abs(value - sent)).toBeLessThanOrEqual(Math.abs(sent) * 2 ** -24);
      }),
    );
  });

  it.each([
    ['fewer vectors than inputs', { embeddings: [{ values: [1] }] }],
    ['no embeddings', { error: 'none' }],
    ['vectors that are not numbers', { embeddings: [{ values: ['a'] }, { values: [] }, { values: [] }] }],
  ])('fails an answer with %s so the relay may retry', (_name, body) => {
    expect(convert(body, { input })).toMatchObject({ ok: false, error: { status: 502, code: 'bad_response' } });
  });

  it('maps Gemini errors, the key never repeated', () => {
    const body = { error: { code: 400, message: 'API key not valid. Please pass a valid API key. AIzaSyA1234567890abcdefghijklmnopqrstuvw', status: 'INVALID_ARGUMENT' } };
    const failure = geminiEmbeddingsAdapter.mapErrorResponse(400, JSON.stringify(body), ['AIzaTestKey']);
    expect(failure).toMatchObject({ keyRejected: true, retryable: true });
    expect(failure.error.message).not.toContain('AIzaSy');
  });
});
