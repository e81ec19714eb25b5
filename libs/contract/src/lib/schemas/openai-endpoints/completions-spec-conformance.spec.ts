import fc from 'fast-check';
import {
  accepted,
  disagreements,
  fieldDifferences,
  verdictsByField,
  verdictsOn,
  type RouteUnderTest,
} from '../../../testing/endpoint-conformance';
import { readJsonLines, fixturePath } from '../../../testing/fixtures';
import { createOpenAiSpecValidator, loadOpenAiSpec } from '../../../testing/openai-spec';
import { specArbitrary } from '../../../testing/openai-spec-arbitrary';
import { documentedExamples } from '../../../testing/openai-spec-examples';
import { CompletionRequestSchema, CompletionSchema } from './completions.schema';

// What our /v1/completions schemas accept must be what OpenAI's description (test-fixtures/spec)
// calls valid, and what it refuses ours refuses; each deliberate difference is pinned below.
const document = loadOpenAiSpec();
const openAiSpec = createOpenAiSpecValidator(document);

const tokens = [1212, 318, 257, 1332, 13];
const route: RouteUnderTest = {
  ours: CompletionRequestSchema,
  specName: 'CreateCompletionRequest',
  base: { model: 'gpt-3.5-turbo-instruct', prompt: 'Say this is a test' },
  pools: {
    model: { valid: ['gpt-3.5-turbo-instruct', 'davinci-002', 'my-own-model'], invalid: [42, null, ['gpt-3.5-turbo-instruct']] },
    prompt: {
      valid: ['Say this is a test', '', ['one', 'two'], tokens, [tokens, [13]], Array(2048).fill('x')],
      invalid: [42, [[]], [1.5], [['one']], { text: 'x' }],
    },
    best_of: { valid: [0, 1, 20, null], invalid: [21, -1, 1.5, '2'] },
    echo: { valid: [true, false, null], invalid: ['yes'] },
    frequency_penalty: { valid: [-2, 0, 1.5, 2, null], invalid: [-2.1, 2.5, '1'] },
    logit_bias: { valid: [{ '50256': -100 }, { '1': 100, '2': 0 }, {}, null], invalid: [{ '1': 1.5 }, 'none'] },
    logprobs: { valid: [0, 5, null], invalid: [6, -1, 2.5] },
    max_tokens: { valid: [0, 16, 4096, null], invalid: [-1, 1.5, '16'] },
    n: { valid: [1, 128, null], invalid: [0, 129] },
    presence_penalty: { valid: [-2, 2, null], invalid: [2.01, -3] },
    seed: { valid: [0, -5, 42, null], invalid: [1.5, '42'] },
    stop: { valid: ['\n', ['a'], ['a', 'b', 'c', 'd'], null], invalid: [[], ['a', 'b', 'c', 'd', 'e'], 5] },
    stream: { valid: [true, false, null], invalid: ['true'] },
    stream_options: { valid: [{ include_usage: true }, {}, null], invalid: ['usage', { include_usage: 'yes' }] },
    suffix: { valid: ['test.', null], invalid: [1] },
    temperature: { valid: [0, 1, 2, null], invalid: [-0.1, 2.1] },
    top_p: { valid: [0, 0.5, 1, null], invalid: [1.1, -0.1] },
    user: { valid: ['user-1234'], invalid: [null, 1] },
  },
};

describe('CreateCompletionRequest, field by field', () => {
  it('names the same fields, with the same strings', () => {
    expect(fieldDifferences(document, route.specName, CompletionRequestSchema)).toEqual({ onlyOurs: [], onlyTheirs: [], strings: [] });
  });

  it.each(Object.keys(route.pools))('%s: both accept the valid values, both refuse the others', (field) => {
    const { actual, expected } = verdictsByField(route, openAiSpec, field);
    expect(actual).toEqual(expected);
  });

  it('generated bodies mixing every field: both agree on each', () => {
    const { wrong, valid, spoiled } = disagreements(route, openAiSpec, ['model', 'prompt']);
    expect(wrong).toEqual([]);
    expect(Math.min(valid, spoiled)).toBeGreaterThan(120);
  });

  it('the documented requests (no streaming, streaming) are accepted by both', () => {
    const requests = documentedExamples(document, '/completions').map(({ request }) => request);
    expect(requests.map((request) => request?.kind)).toEqual(['json', 'json']);
    for (const request of requests) if (request?.kind === 'json') expect(verdictsOn(route, openAiSpec, request.body as object)).toEqual(accepted);
  });
});

describe('CreateCompletionRequest: where ours differs, on purpose', () => {
  const on = (fields: object) => verdictsOn(route, openAiSpec, { ...route.base, ...fields });
  const oursOnly = { ours: expect.stringMatching(/^refuses/), openai: 'accepts' };

  it.each([
    ['a null prompt (OpenAI reads it as <|endoftext|>): the bridges to chat need text to send', { prompt: null }],
    ['an empty prompt list: it asks for no completion at all', { prompt: [] }],
    ['more than 2048 prompts: the bound OpenAI documents for embeddings inputs, kept for one request’s cost', { prompt: Array(2049).fill('x') }],
    ['a negative token id: no tokenizer numbers below 0', { prompt: [-1, 318] }],
    ['a logit_bias beyond ±100: the bound OpenAI’s description states in words, not in its schema', { logit_bias: { '50256': 101 } }],
    ['an empty model name: the relay routes on it', { model: '' }],
  ])('refused by ours only: %s', (_name, fields) => {
    expect(on(fields)).toEqual(oursOnly);
  });

  it('unknown fields are accepted by both, and ours keeps them to forward', () => {
    expect(on({ service_tier: 'flex' })).toEqual(accepted);
    expect(CompletionRequestSchema.parse({ ...route.base, service_tier: 'flex' })).toMatchObject({ service_tier: 'flex' });
  });
});

describe('CreateCompletionResponse', () => {
  it('answers drawn from OpenAI’s schema are read by ours', () => {
    for (const answer of fc.sample(specArbitrary(document, 'CreateCompletionResponse'), { numRuns: 200, seed: 1 })) {
      expect(openAiSpec.errorsFor('CreateCompletionResponse', answer)).toEqual([]);
      expect(CompletionSchema.safeParse(answer).error?.issues).toBeUndefined();
    }
  });

  it('the documented answers are read by both (the streamed one only once its commas are fixed)', () => {
    const answers = documentedExamples(document, '/completions').map(({ title, answer }) => [title, answer] as const);
    expect(answers.map(([title, answer]) => [title, answer?.kind === 'json' && answer.repaired])).toEqual([
      ['No streaming', false],
      ['Streaming', true],
    ]);
    const [whole, chunk] = answers.map(([, answer]) => (answer?.kind === 'json' ? answer.value : undefined));
    expect(CompletionSchema.safeParse(whole).success).toBe(true);
    expect(openAiSpec.errorsFor('CreateCompletionResponse', whole)).toEqual([]);
    expect(CompletionSchema.safeParse(chunk).success).toBe(true);
    expect(openAiSpec.errorsFor('CreateCompletionResponse', chunk).join('\n')).toContain('/choices/0/finish_reason must be string');
  });

  it('every recorded stream chunk (completion-text.stream.jsonl) is read by ours', () => {
    const chunks = readJsonLines(fixturePath('media', 'completion-text.stream.jsonl'));
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(CompletionSchema.safeParse(chunk).error?.issues).toBeUndefined();
  });

  it.each([
    ['finish_reason null until the last text chunk (the recorded stream)', 0, '/choices/0/finish_reason must be string'],
    ['usage null on every chunk before the last (the recorded stream)', 0, '/usage must be object'],
  ])('read by ours though OpenAI’s schema (which describes a whole answer) refuses it: %s', (_name, index, specError) => {
    const chunk = readJsonLines(fixturePath('media', 'completion-text.stream.jsonl'))[index];
    expect(CompletionSchema.safeParse(chunk).success).toBe(true);
    expect(openAiSpec.errorsFor('CreateCompletionResponse', chunk).join('\n')).toContain(specError);
  });

  it('a null token_logprobs entry (the first token of an echoed prompt has none) is read by ours, not by OpenAI’s schema', () => {
    const [recorded] = readJsonLines(fixturePath('media', 'completion-text.stream.jsonl')) as Array<{ choices: object[] }>;
    const logprobs = { tokens: ['Say', ' this'], token_logprobs: [null, -0.5], top_logprobs: [null, { ' this': -0.5 }], text_offset: [0, 3] };
    const echoed = { ...recorded, choices: [{ ...recorded!.choices[0], logprobs }] };
    expect(CompletionSchema.safeParse(echoed).success).toBe(true);
    expect(openAiSpec.errorsFor('CreateCompletionResponse', echoed).join('\n')).toContain('/choices/0/logprobs/token_logprobs/0 must be number');
  });

  it.each([
    ['an unknown finish_reason', { finish_reason: 'tool_calls' }],
    ['a choice without text', { text: undefined }],
    ['a fractional index', { index: 0.5 }],
  ])('answers both refuse: %s', (_name, change) => {
    const answer = JSON.parse(JSON.stringify({
      id: 'cmpl-1',
      object: 'text_completion',
      created: 1_589_478_378,
      model: 'gpt-3.5-turbo-instruct',
      choices: [{ text: 'x', index: 0, logprobs: null, finish_reason: 'stop', ...change }],
    }));
    expect(CompletionSchema.safeParse(answer).success).toBe(false);
    expect(openAiSpec.errorsFor('CreateCompletionResponse', answer)).not.toEqual([]);
  });
});

