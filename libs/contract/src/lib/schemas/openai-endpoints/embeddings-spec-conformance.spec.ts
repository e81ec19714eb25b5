import fc from 'fast-check';
import { accepted, disagreements, fieldDifferences, verdictsByField, verdictsOn, type RouteUnderTest } from '../../../testing/endpoint-conformance';
import { fixturePath, readCassette } from '../../../testing/fixtures';
import { createOpenAiSpecValidator, loadOpenAiSpec } from '../../../testing/openai-spec';
import { specArbitrary } from '../../../testing/openai-spec-arbitrary';
import { documentedExamples } from '../../../testing/openai-spec-examples';
import { EmbeddingListSchema, EmbeddingRequestSchema } from './embeddings.schema';

// /v1/embeddings against OpenAI's description (test-fixtures/spec): see completions-spec-conformance.
const document = loadOpenAiSpec();
const openAiSpec = createOpenAiSpecValidator(document);

const route: RouteUnderTest = {
  ours: EmbeddingRequestSchema,
  specName: 'CreateEmbeddingRequest',
  base: { model: 'text-embedding-3-small', input: 'The food was delicious' },
  pools: {
    input: {
      valid: ['The food was delicious', ['one', 'two'], [1212, 318], [[1212], [318, 257]], Array(2048).fill('x'), Array(2048).fill([13])],
      invalid: [[], Array(2049).fill('x'), Array(2049).fill([13]), [[]], [1.5], 5, null, ['one', 2]],
    },
    model: { valid: ['text-embedding-3-small', 'text-embedding-ada-002', 'my-embedder'], invalid: [null, 3] },
    encoding_format: { valid: ['float', 'base64'], invalid: ['binary', null] },
    dimensions: { valid: [1, 256, 3072], invalid: [0, -1, 1.5, '256', null] },
    user: { valid: ['user-1234'], invalid: [null, 5] },
  },
};
const recorded = readCassette(fixturePath('media', 'embeddings-base64.yaml'))[0]!;

describe('CreateEmbeddingRequest, field by field', () => {
  it('names the same fields, with the same strings', () => {
    expect(fieldDifferences(document, route.specName, EmbeddingRequestSchema)).toEqual({ onlyOurs: [], onlyTheirs: [], strings: [] });
  });

  it.each(Object.keys(route.pools))('%s: both accept the valid values, both refuse the others', (field) => {
    const { actual, expected } = verdictsByField(route, openAiSpec, field);
    expect(actual).toEqual(expected);
  });

  it('generated bodies mixing every field: both agree on each', () => {
    const { wrong, valid, spoiled } = disagreements(route, openAiSpec, ['model', 'input']);
    expect(wrong).toEqual([]);
    expect(Math.min(valid, spoiled)).toBeGreaterThan(120);
  });

  it('the documented request and the recorded one (pydantic-ai: dimensions 128, base64) are accepted by both', () => {
    const [documented] = documentedExamples(document, '/embeddings');
    expect(documented?.request?.kind).toBe('json');
    expect(verdictsOn(route, openAiSpec, (documented?.request as { body: object }).body)).toEqual(accepted);
    expect(recorded.request.parsed_body).toMatchObject({ dimensions: 128, encoding_format: 'base64' });
    expect(verdictsOn(route, openAiSpec, recorded.request.parsed_body as object)).toEqual(accepted);
  });
});

describe('CreateEmbeddingRequest: where ours differs, on purpose', () => {
  const on = (fields: object) => verdictsOn(route, openAiSpec, { ...route.base, ...fields });

  it.each([
    ['an empty string, which OpenAI’s description says it refuses (its schema does not)', { input: '' }],
    ['an empty string among several', { input: ['one', ''] }],
    ['a negative token id: no tokenizer numbers below 0', { input: [-1, 318] }],
    ['an empty model name: the relay routes on it', { model: '' }],
  ])('refused by ours only: %s', (_name, fields) => {
    expect(on(fields)).toEqual({ ours: expect.stringMatching(/^refuses/), openai: 'accepts' });
  });

  it('an unknown field: kept and forwarded by ours (other upstreams take more), though OpenAI’s schema allows none', () => {
    expect(on({ input_type: 'query' })).toEqual({ ours: 'accepts', openai: expect.stringContaining('must NOT have additional properties') });
    expect(EmbeddingRequestSchema.parse({ ...route.base, input_type: 'query' })).toMatchObject({ input_type: 'query' });
  });
});

describe('CreateEmbeddingResponse', () => {
  it('answers drawn from OpenAI’s schema are read by ours', () => {
    for (const answer of fc.sample(specArbitrary(document, 'CreateEmbeddingResponse'), { numRuns: 200, seed: 1 })) {
      expect(openAiSpec.errorsFor('CreateEmbeddingResponse', answer)).toEqual([]);
      expect(EmbeddingListSchema.safeParse(answer).error?.issues).toBeUndefined();
    }
  });

  it('the documented answer, read once its elided floats are dropped, is read by both', () => {
    const [documented] = documentedExamples(document, '/embeddings');
    expect(documented?.answer).toMatchObject({ kind: 'json', repaired: true });
    const value = (documented?.answer as { value: unknown }).value;
    expect(EmbeddingListSchema.safeParse(value).success).toBe(true);
    expect(openAiSpec.errorsFor('CreateEmbeddingResponse', value)).toEqual([]);
  });

  it('a base64 vector (the recorded answer to encoding_format base64) is read by ours; OpenAI’s schema only describes floats', () => {
    const answer = recorded.response.parsed_body;
    expect(EmbeddingListSchema.safeParse(answer).error?.issues).toBeUndefined();
    expect(openAiSpec.errorsFor('CreateEmbeddingResponse', answer).join('\n')).toContain('/data/0/embedding must be array');
  });

  const list = { object: 'list', model: 'text-embedding-3-small' };
  const usage = { prompt_tokens: 1, total_tokens: 1 };
  it.each([
    ['an answer without usage', { ...list, data: [] }],
    ['an item whose object is not embedding', { ...list, usage, data: [{ object: 'vector', embedding: [0.1], index: 0 }] }],
    ['a fractional index', { ...list, usage, data: [{ object: 'embedding', embedding: [0.1], index: 0.5 }] }],
  ])('answers both refuse: %s', (_name, answer) => {
    expect(EmbeddingListSchema.safeParse(answer).success).toBe(false);
    expect(openAiSpec.errorsFor('CreateEmbeddingResponse', answer)).not.toEqual([]);
  });
});
