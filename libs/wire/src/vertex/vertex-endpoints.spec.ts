import { readFixture } from '../testing/fixtures';
import { readGeminiStreamLines } from '../gemini/testing/gemini-fixtures';
import { vertexCompletionsAdapter } from './vertex-completions-adapter';
import { vertexEmbeddingsAdapter } from './vertex-embeddings-adapter';
import { vertexModelList } from './vertex-model-list';
import { GLOBAL, SERVICE_ACCOUNT_KEY, US_EAST5 } from './testing/vertex-channel';

// https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api
describe('embeddings on Vertex', () => {
  const request = { model: 'emb', input: ['one', 'two'], dimensions: 256, task_type: 'RETRIEVAL_QUERY' };

  it('posts one instance per input to :predict, dimensions as outputDimensionality', () => {
    const built = vertexEmbeddingsAdapter.buildRequest({ channel: US_EAST5, key: SERVICE_ACCOUNT_KEY, request, upstreamModel: 'text-embedding-005' });
    expect(built.url).toBe('https://us-east5-aiplatform.googleapis.com/v1/projects/acme-prod/locations/us-east5/publishers/google/models/text-embedding-005:predict');
    expect(JSON.parse(String(built.body))).toEqual({
      instances: [
        { content: 'one', task_type: 'RETRIEVAL_QUERY' },
        { content: 'two', task_type: 'RETRIEVAL_QUERY' },
      ],
      parameters: { outputDimensionality: 256 },
    });
  });

  it('refuses token ids and fields Vertex has no counterpart for', () => {
    const build = (fields: Record<string, unknown>) => () =>
      vertexEmbeddingsAdapter.buildRequest({ channel: GLOBAL, key: SERVICE_ACCOUNT_KEY, request: { model: 'emb', input: 'x', ...fields }, upstreamModel: 'text-embedding-005' });
    expect(build({ input: [[1, 2, 3]] })).toThrow("'input' cannot be sent to a Vertex channel as token ids");
    expect(build({ truncate: 'END' })).toThrow("'truncate' cannot be sent to a Vertex channel");
  });

  it("answers OpenAI's list in the inputs' order, the tokens Vertex counted summed", () => {
    const answer = JSON.stringify({
      predictions: [
        { embeddings: { values: [0.1, 0.2], statistics: { token_count: 1, truncated: false } } },
        { embeddings: { values: [0.3, 0.4], statistics: { token_count: 2, truncated: false } } },
      ],
    });
    const converted = vertexEmbeddingsAdapter.convertResponse(answer, { request, publicModel: 'emb', contentType: 'application/json' });
    expect(converted).toMatchObject({ ok: true, usage: { promptTokens: 3, units: 0 } });
    if (!converted.ok || converted.kind !== 'json') return;
    expect(converted.body['data']).toEqual([
      { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
      { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
    ]);
    const short = vertexEmbeddingsAdapter.convertResponse(JSON.stringify({ predictions: [] }), { request, publicModel: 'emb', contentType: 'application/json' });
    expect(short.ok).toBe(false);
  });
});

describe('completions on Vertex, bridged through the model’s chat adapter', () => {
  const context = { request: { model: 'c', prompt: 'Say hi' }, publicModel: 'c', contentType: 'application/json' };

  it('goes to rawPredict for Claude and generateContent for Gemini', () => {
    const build = (upstreamModel: string) => vertexCompletionsAdapter.buildRequest({ channel: GLOBAL, key: SERVICE_ACCOUNT_KEY, request: { model: 'c', prompt: 'Say hi', max_tokens: 5 }, upstreamModel }).url;
    expect(build('claude-haiku-4-5@20251001')).toMatch(/publishers\/anthropic\/models\/claude-haiku-4-5@20251001:rawPredict$/);
    expect(build('gemini-2.5-flash')).toMatch(/publishers\/google\/models\/gemini-2\.5-flash:generateContent$/);
  });

  it("reads either publisher's answer and stream", () => {
    const claude = vertexCompletionsAdapter.convertResponse(readFixture('anthropic/message-text.json'), context);
    const gemini = vertexCompletionsAdapter.convertResponse(readFixture('gemini/generate-content-text.json'), context);
    expect([claude.ok && claude.kind === 'json' && claude.body['object'], gemini.ok && gemini.kind === 'json' && gemini.body['object']]).toEqual(['text_completion', 'text_completion']);

    const options = { publicModel: 'c', callerWantsUsage: true, secrets: [] };
    const fromGemini = vertexCompletionsAdapter.createStreamTransformer?.(options);
    for (const data of readGeminiStreamLines('generate-content-text.stream.jsonl')) fromGemini?.transform({ data });
    expect(fromGemini?.complete).toBe(true);
    const fromClaude = vertexCompletionsAdapter.createStreamTransformer?.(options);
    for (const data of readFixture('anthropic/message-text.stream.jsonl').split('\n').filter(Boolean)) fromClaude?.transform({ event: (JSON.parse(data) as { type: string }).type, data });
    expect(fromClaude?.complete).toBe(true);
    expect(fromClaude?.usage?.promptTokens).toBe(12);
  });
});

// https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/publishers.models/list
describe("Model Garden's list of Google's models", () => {
  it('pages by pageToken on the base URL', () => {
    expect(vertexModelList.url('https://aiplatform.googleapis.com/', 'tok/1')).toBe('https://aiplatform.googleapis.com/v1beta1/publishers/google/models?pageSize=1000&pageToken=tok%2F1');
  });

  it('reads ids from publisher model names, the endpoints from the name table, and an empty page', () => {
    const namedBy = (id: string) => (id.startsWith('gemini') ? (['chat', 'completions'] as const) : null);
    const page = vertexModelList.parse(
      { publisherModels: [{ name: 'publishers/google/models/gemini-2.5-flash', versionId: '001' }, { name: 'publishers/google/models/imagen-4.0-generate-001' }], nextPageToken: 'n2' },
      namedBy,
    );
    expect(page).toEqual({
      success: true,
      data: { models: [{ id: 'gemini-2.5-flash', endpoints: ['chat', 'completions'] }, { id: 'imagen-4.0-generate-001', endpoints: null }], next: 'n2' },
    });
    expect(vertexModelList.parse({}, namedBy)).toEqual({ success: true, data: { models: [], next: undefined } });
    expect(vertexModelList.parse({ data: [] , publisherModels: 'x' }, namedBy).success).toBe(false);
  });
});
