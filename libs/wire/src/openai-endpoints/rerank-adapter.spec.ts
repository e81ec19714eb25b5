import { RerankRequestSchema, RerankResponseSchema } from '@chat-relay/contract';
import { openAiRerankAdapter } from './rerank-adapter';
import { jsonAnswer, readFixture } from './testing/media-fixtures';

const documents = ['sunny day at the beach', 'rainy day in the city', 'd2', 'd3', 'd4', 'snowy day in the mountains'];
const requestOf = (fields: Record<string, unknown> = {}) => RerankRequestSchema.parse({ model: 'my-reranker', query: 'rainy weather', documents, ...fields });
const convert = (text: string, fields: Record<string, unknown> = {}) =>
  openAiRerankAdapter.convertResponse(text, { request: requestOf(fields), publicModel: 'my-reranker', contentType: 'application/json' });

describe('openAiRerankAdapter', () => {
  it('forwards the caller’s bytes to {base_url}/rerank, the model swapped', () => {
    const raw = JSON.stringify({ model: 'my-reranker', query: 'q', documents: ['a'], top_n: 1 });
    const built = openAiRerankAdapter.buildRequest({ channel: { baseUrl: 'http://vllm:8000/v1/' }, key: 'k', request: JSON.parse(raw), upstreamModel: 'bge-reranker', rawBody: Buffer.from(raw) });
    expect(built.url).toBe('http://vllm:8000/v1/rerank');
    expect(built.body.toString()).toBe(raw.replace('"my-reranker"', '"bge-reranker"'));
  });

  it('normalises the recorded Cohere answer (rerank-cohere.json): the caller’s model, billed search units', () => {
    const answer = jsonAnswer(convert(readFixture('media/rerank-cohere.json')));
    expect(RerankResponseSchema.parse(answer.body)).toEqual({
      id: 'b44fe75b-e3d3-489a-b61e-1a1aede3ef72',
      model: 'my-reranker',
      results: [
        { index: 1, relevance_score: 0.10183054 },
        { index: 0, relevance_score: 0.03762639 },
      ],
      meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
    });
    expect(answer.usage).toEqual({ promptTokens: 0, completionTokens: 0, units: 1 });
  });

  it('fills documents from the request when asked for and the upstream left them out', () => {
    const answer = jsonAnswer(convert(readFixture('media/rerank-cohere.json'), { return_documents: true }));
    expect(answer.body['results']).toEqual([
      { index: 1, relevance_score: 0.10183054, document: { text: 'rainy day in the city' } },
      { index: 0, relevance_score: 0.03762639, document: { text: 'sunny day at the beach' } },
    ]);
  });

  it('normalises the recorded Together AI answer (rerank-togetherai.json): empty documents dropped, tokens read', () => {
    const answer = jsonAnswer(convert(readFixture('media/rerank-togetherai.json')));
    expect(answer.body).toMatchObject({ id: 'oGs6Zt9-62bZhn-99529372487b1b0a', object: 'rerank', model: 'my-reranker' });
    expect(answer.body['results']).toEqual([
      { index: 0, relevance_score: 0.6475887154399037 },
      { index: 5, relevance_score: 0.6323295373206566 },
    ]);
    // No billed units: one search unit per 100 documents.
    expect(answer.usage).toEqual({ promptTokens: 2966, completionTokens: 0, units: 1 });
    const filled = jsonAnswer(convert(readFixture('media/rerank-togetherai.json'), { return_documents: true }));
    expect(filled.body['results']).toEqual([
      { index: 0, relevance_score: 0.6475887154399037, document: { text: 'sunny day at the beach' } },
      { index: 5, relevance_score: 0.6323295373206566, document: { text: 'snowy day in the mountains' } },
    ]);
  });

  it('reads a TEI bare array, best first, and a Jina answer whose documents are strings', () => {
    const tei = jsonAnswer(convert(JSON.stringify([{ index: 0, score: 0.2 }, { index: 1, score: 0.9, text: 'rainy day in the city' }])));
    expect(tei.body).toEqual({
      model: 'my-reranker',
      results: [
        { index: 1, relevance_score: 0.9, document: { text: 'rainy day in the city' } },
        { index: 0, relevance_score: 0.2 },
      ],
    });
    const jina = jsonAnswer(convert(JSON.stringify({ model: 'jina-reranker-v2', usage: { total_tokens: 38 }, results: [{ index: 2, relevance_score: 0.5, document: 'd2' }] })));
    expect(jina.body).toEqual({ model: 'my-reranker', usage: { total_tokens: 38 }, results: [{ index: 2, relevance_score: 0.5, document: { text: 'd2' } }] });
    expect(jina.usage).toEqual({ promptTokens: 38, completionTokens: 0, units: 1 });
  });

  it('counts billed input tokens, and one search unit per started hundred documents', () => {
    const many = Array.from({ length: 201 }, (_, index) => `doc ${index}`);
    const answer = jsonAnswer(convert(JSON.stringify({ results: [{ index: 200, relevance_score: 0.1 }], meta: { billed_units: { input_tokens: 77 } } }), { documents: many }));
    expect(answer.usage).toEqual({ promptTokens: 77, completionTokens: 0, units: 3 });
  });

  it.each([
    ['not JSON', 'upstream error page'],
    ['no results', '{"id":"x"}'],
    ['a result without a score', '{"results":[{"index":0}]}'],
    ['an index past the documents', '{"results":[{"index":6,"relevance_score":0.1}]}'],
  ])('fails %s so the relay may retry', (_name, text) => {
    expect(convert(text)).toMatchObject({ ok: false, error: { status: 502, code: 'bad_response' } });
  });
});
