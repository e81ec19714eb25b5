import { fixturePath, readJson } from '../../../testing/fixtures';
import { RerankRequestSchema, RerankResponseSchema } from './rerank.schema';

// /v1/rerank is not in OpenAI's description: it takes the Cohere/Jina shape. The answer schema is
// the relay's answer, which libs/wire's rerank adapter makes from what the upstream sent.
type Answer = { results: Array<Record<string, unknown>> } & Record<string, unknown>;
const cohere = readJson(fixturePath('media', 'rerank-cohere.json')) as Answer;
const together = readJson(fixturePath('media', 'rerank-togetherai.json')) as Answer;
const issuesOf = (value: unknown) => RerankResponseSchema.safeParse(value).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('RerankResponseSchema and the recorded upstream answers', () => {
  it('Cohere’s (rerank-cohere.json) lacks only the model, which the relay fills with the caller’s; meta is kept', () => {
    expect(issuesOf(cohere)).toEqual(['model: Required']);
    expect(RerankResponseSchema.parse({ ...cohere, model: 'my-reranker' })).toMatchObject({ meta: { billed_units: { search_units: 1 } } });
  });

  it('Together AI’s (rerank-togetherai.json) differs only in its empty documents, which the relay drops', () => {
    expect(issuesOf(together)).toEqual(['results.0.document: Invalid input', 'results.1.document: Invalid input']);
    const normalised = { ...together, results: together.results.map(({ document: _document, ...result }) => result) };
    expect(RerankResponseSchema.parse(normalised)).toMatchObject({ model: 'Salesforce/Llama-Rank-v1', usage: { total_tokens: 2966 } });
  });

  it('documents come back as text or as {text}', () => {
    for (const document of ['rainy day', { text: 'rainy day' }]) {
      expect(issuesOf({ model: 'm', results: [{ index: 0, relevance_score: 0.5, document }] })).toBeUndefined();
    }
  });
});

describe('RerankRequestSchema: the Cohere and Jina request shapes', () => {
  const request = (fields: object) => ({ model: 'rerank-v3.5', query: 'rainy weather', documents: ['sunny day', 'rainy day'], ...fields });

  it.each([
    ['Cohere v2: text documents and top_n', request({ top_n: 1 })],
    ['Jina: {text} documents and return_documents', request({ documents: [{ text: 'sunny day' }], return_documents: true })],
    ['10000 documents, Cohere’s most', request({ documents: Array(10_000).fill('d') })],
    ['an unknown field, kept to forward', request({ max_tokens_per_doc: 512 })],
  ])('accepted: %s', (_name, body) => {
    expect(RerankRequestSchema.parse(body)).toEqual(body);
  });

  it.each([
    ['no documents', request({ documents: [] })],
    ['more than 10000 documents', request({ documents: Array(10_001).fill('d') })],
    ['top_n 0', request({ top_n: 0 })],
    ['an empty query', request({ query: '' })],
    ['a document that is neither text nor {text}', request({ documents: [{ title: 'x' }] })],
  ])('refused: %s', (_name, body) => {
    expect(RerankRequestSchema.safeParse(body).success).toBe(false);
  });
});
