import { ErrorResponseSchema, ModerationResponseSchema, RerankResponseSchema } from '@chat-relay/contract';
import { expectSpecValid, warmSpecChecker } from '../responses/testing/openai-spec-check';
import { startUpstreamSim } from '../sim-server';
import { callOpenAi, testKey } from '../sim-test-client';
import type { UpstreamSim } from '../sim-types';
import { moderationCategories } from './handle-moderations';
import { rerankScore } from './handle-rerank';

let sim: UpstreamSim;
beforeAll(async () => {
  warmSpecChecker();
  sim = await startUpstreamSim({ acceptedKeys: [testKey] });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const documents = ['Paris is the capital of France', 'Berlin is in Germany', { text: 'The capital of France' }, 'bananas'];

async function rerank(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await callOpenAi(sim, 'POST', '/rerank', { body: { model: 'rerank-v3.5', query: 'capital of France', documents, ...body } });
  expect(response.status).toBe(200);
  const json = (await response.json()) as Record<string, unknown>;
  RerankResponseSchema.parse(json);
  return json;
}

describe('POST /v1/rerank', () => {
  it('ranks documents by word overlap with the query, best first, billing a search unit per 100 documents', async () => {
    const answer = await rerank({});
    expect(answer['results']).toEqual([
      { index: 2, relevance_score: rerankScore('capital of France', 'The capital of France') },
      { index: 0, relevance_score: rerankScore('capital of France', 'Paris is the capital of France') },
      { index: 1, relevance_score: 0 },
      { index: 3, relevance_score: 0 },
    ]);
    expect(rerankScore('capital of France', 'The capital of France')).toBeCloseTo(3 / 4);
    expect(answer).toMatchObject({ model: 'rerank-v3.5', meta: { billed_units: { search_units: 1 } }, usage: { total_tokens: 4 * 3 + 6 + 4 + 4 + 1 } });
    expect(answer['id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect((await rerank({}))['id']).toBe(answer['id']);
  });

  it('cuts at top_n and returns the documents as {text} when asked', async () => {
    const answer = await rerank({ top_n: 2, return_documents: true });
    expect(answer['results']).toEqual([
      expect.objectContaining({ index: 2, document: { text: 'The capital of France' } }),
      expect.objectContaining({ index: 0, document: { text: 'Paris is the capital of France' } }),
    ]);
    const many = await rerank({ documents: Array.from({ length: 201 }, (_, index) => `doc ${index}`) });
    expect(many['meta']).toMatchObject({ billed_units: { search_units: 3 } });
  });

  it('answers 400 naming the field for a missing query or no documents', async () => {
    const missing = await callOpenAi(sim, 'POST', '/rerank', { body: { model: 'm', documents } });
    expect(ErrorResponseSchema.parse(await missing.json()).error).toMatchObject({ message: "Missing required parameter: 'query'.", param: 'query' });
    const none = await callOpenAi(sim, 'POST', '/rerank', { body: { model: 'm', query: 'q', documents: [] } });
    expect(none.status).toBe(400);
    expect(ErrorResponseSchema.parse(await none.json()).error.param).toBe('documents');
  });
});

async function moderate(body: Record<string, unknown>): Promise<ReturnType<typeof ModerationResponseSchema.parse>> {
  const response = await callOpenAi(sim, 'POST', '/moderations', { body });
  expect(response.status).toBe(200);
  const json: unknown = await response.json();
  expectSpecValid('CreateModerationResponse', json);
  return ModerationResponseSchema.parse(json);
}

describe('POST /v1/moderations', () => {
  it('answers one result per text, flagging the words it knows, on omni-moderation-latest by default', async () => {
    const answer = await moderate({ input: ['I will kill the process', 'I hate Mondays', 'What a nice day'] });
    expect(answer.model).toBe('omni-moderation-latest');
    expect(answer.id).toMatch(/^modr-sim[0-9a-f]{24}$/);
    const [kill, hate, nice] = answer.results;
    expect(kill).toMatchObject({ flagged: true, categories: { violence: true, hate: false }, category_scores: { violence: 0.95 } });
    expect(hate).toMatchObject({ flagged: true, categories: { hate: true, violence: false } });
    expect(nice?.flagged).toBe(false);
    expect(Object.keys(nice?.categories ?? {})).toEqual([...moderationCategories]);
    expect(Object.values(nice?.category_scores ?? {}).every((score) => score >= 0 && score < 0.01)).toBe(true);
    expect(nice?.category_applied_input_types?.['violence']).toEqual(['text']);
    expect((await moderate({ input: ['I will kill the process', 'I hate Mondays', 'What a nice day'] })).results).toEqual(answer.results);
  });

  it('takes text and image parts as one input, image categories applying to the image', async () => {
    const answer = await moderate({
      model: 'omni-moderation-latest',
      input: [
        { type: 'text', text: 'kill it' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    });
    expect(answer.results).toHaveLength(1);
    expect(answer.results[0]?.flagged).toBe(true);
    expect(answer.results[0]?.category_applied_input_types).toMatchObject({ violence: ['text', 'image'], hate: ['text'] });
  });

  it('applies no category to images on text-moderation models, which read none', async () => {
    const parts = [{ type: 'text', text: 'murder' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }];
    const answer = await moderate({ model: 'text-moderation-latest', input: parts });
    expect(answer.model).toBe('text-moderation-latest');
    expect(answer.results[0]).toMatchObject({ flagged: true, categories: { violence: true } });
    expect(answer.results[0]?.category_applied_input_types?.['violence']).toEqual(['text']);
  });
});
