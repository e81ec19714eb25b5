import fc from 'fast-check';
import { accepted, disagreements, fieldDifferences, verdictsByField, verdictsOn, type RouteUnderTest } from '../../../testing/endpoint-conformance';
import { fixturePath, readJson } from '../../../testing/fixtures';
import { createOpenAiSpecValidator, loadOpenAiSpec } from '../../../testing/openai-spec';
import { specArbitrary } from '../../../testing/openai-spec-arbitrary';
import { documentedExamples } from '../../../testing/openai-spec-examples';
import { ModerationRequestSchema, ModerationResponseSchema } from './moderations.schema';

// /v1/moderations against OpenAI's description (test-fixtures/spec): see completions-spec-conformance.
const document = loadOpenAiSpec();
const openAiSpec = createOpenAiSpecValidator(document);

const text = { type: 'text', text: 'I want to kill them.' };
const image = { type: 'image_url', image_url: { url: 'https://example.com/image.png' } };
const route: RouteUnderTest = {
  ours: ModerationRequestSchema,
  specName: 'CreateModerationRequest',
  base: { input: 'I want to kill them.' },
  pools: {
    input: {
      valid: ['I want to kill them.', '', ['one', 'two'], [text], [text, image], [{ ...image, image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }]],
      invalid: [
        5,
        null,
        [text, 'two'],
        [{ type: 'text' }],
        [{ type: 'image_url', image_url: {} }],
        [{ type: 'image_url', image_url: { url: 'not a url' } }],
        [{ type: 'input_audio', input_audio: {} }],
      ],
    },
    // Optional, as OpenAI has it: the relay then routes on OpenAI's default (DEFAULT_MODERATION_MODEL).
    model: { valid: ['omni-moderation-latest', 'text-moderation-stable', 'my-classifier'], invalid: [null, 1] },
  },
};
type SessionEntry = { RequestBody: unknown; ResponseBody: unknown };
const session = (name: string) => (readJson(fixturePath('media', name)) as { Entries: SessionEntry[] }).Entries[0]!;
const recordings = ['session-moderation-text.json', 'session-moderation-text-and-image.json'].map(session);
type RecordedResult = { flagged: boolean; categories: Record<string, unknown>; category_scores: Record<string, unknown> };
/** A fresh copy of the first recorded result, to change. */
const recordedResult = () => structuredClone((recordings[0]!.ResponseBody as { results: RecordedResult[] }).results[0]!);

describe('CreateModerationRequest, field by field', () => {
  it('names the same fields, with the same strings', () => {
    expect(fieldDifferences(document, route.specName, ModerationRequestSchema)).toEqual({ onlyOurs: [], onlyTheirs: [], strings: [] });
  });

  it.each(Object.keys(route.pools))('%s: both accept the valid values, both refuse the others', (field) => {
    const { actual, expected } = verdictsByField(route, openAiSpec, field);
    expect(actual).toEqual(expected);
  });

  it('generated bodies: both agree on each (model may be left out)', () => {
    const { wrong, valid, spoiled } = disagreements(route, openAiSpec, ['input']);
    expect(wrong).toEqual([]);
    expect(Math.min(valid, spoiled)).toBeGreaterThan(120);
  });

  it('the recorded requests (openai-dotnet: a string; text and an image) are accepted by both', () => {
    for (const { RequestBody } of recordings) expect(verdictsOn(route, openAiSpec, RequestBody as object)).toEqual(accepted);
  });

  it('the documented requests (a single string; text and an image) are accepted by both', () => {
    const requests = documentedExamples(document, '/moderations').map(({ request }) => request);
    expect(requests.map((request) => request?.kind)).toEqual(['json', 'json']);
    for (const request of requests) expect(verdictsOn(route, openAiSpec, (request as { body: object }).body)).toEqual(accepted);
  });
});

describe('CreateModerationRequest: where ours differs, on purpose', () => {
  it('an empty input list: ours refuses (nothing to classify); OpenAI’s schema refuses it only because [] matches two of its oneOf members', () => {
    const empty = { input: [] };
    expect(ModerationRequestSchema.safeParse(empty).success).toBe(false);
    expect(openAiSpec.errorsFor(route.specName, empty).join('\n')).toContain('/input must match exactly one schema in oneOf');
    expect(createOpenAiSpecValidator(document, { oneOfAsAnyOf: true }).errorsFor(route.specName, empty)).toEqual([]);
  });

  it('an empty model name: refused by ours only (the relay routes on it)', () => {
    expect(verdictsOn(route, openAiSpec, { ...route.base, model: '' })).toEqual({ ours: expect.stringMatching(/^refuses/), openai: 'accepts' });
  });
});

describe('CreateModerationResponse', () => {
  it('answers drawn from OpenAI’s schema are read by ours (illicit and illicit/violent may be null)', () => {
    const answers = fc.sample(specArbitrary(document, 'CreateModerationResponse'), { numRuns: 200, seed: 1 });
    expect(answers.some((answer) => JSON.stringify(answer).includes('"illicit":null'))).toBe(true);
    for (const answer of answers) {
      expect(openAiSpec.errorsFor('CreateModerationResponse', answer)).toEqual([]);
      expect(ModerationResponseSchema.safeParse(answer).error?.issues).toBeUndefined();
    }
  });

  it('the recorded answers (omni-moderation-latest, text; text and an image) are read by both', () => {
    for (const { ResponseBody } of recordings) {
      expect(ModerationResponseSchema.safeParse(ResponseBody).error?.issues).toBeUndefined();
      expect(openAiSpec.errorsFor('CreateModerationResponse', ResponseBody)).toEqual([]);
    }
  });

  it('a text-moderation answer with illicit null (documented for models without those categories) is read by both', () => {
    const result = recordedResult();
    Object.assign(result.categories, { illicit: null, 'illicit/violent': null });
    const answer = { id: 'modr-1', model: 'text-moderation-007', results: [result] };
    expect(ModerationResponseSchema.safeParse(answer).error?.issues).toBeUndefined();
    expect(openAiSpec.errorsFor('CreateModerationResponse', answer)).toEqual([]);
  });

  it('the documented answers: both read the image-and-text one; the single-string one (text-moderation-007) only ours', () => {
    const [single, imageAndText] = documentedExamples(document, '/moderations').map(({ answer }) => (answer as { value: unknown }).value);
    expect(ModerationResponseSchema.safeParse(imageAndText).error?.issues).toBeUndefined();
    expect(openAiSpec.errorsFor('CreateModerationResponse', imageAndText)).toEqual([]);
    // It has no illicit categories and no category_applied_input_types: older models answer so.
    expect(ModerationResponseSchema.safeParse(single).error?.issues).toBeUndefined();
    expect(openAiSpec.errorsFor('CreateModerationResponse', single).map((error) => error.split(' {')[0])).toEqual([
      "/results/0 must have required property 'category_applied_input_types'",
      "/results/0/categories must have required property 'illicit'",
      "/results/0/categories must have required property 'illicit/violent'",
      "/results/0/category_scores must have required property 'illicit'",
      "/results/0/category_scores must have required property 'illicit/violent'",
    ]);
  });

  it.each([
    ['a category that is not true, false or null', (result: RecordedResult) => (result.categories['hate'] = 'no')],
    ['a score that is not a number', (result: RecordedResult) => (result.category_scores['hate'] = 'low')],
    ['a result without flagged', (result: Partial<RecordedResult>) => delete result.flagged],
  ])('answers both refuse: %s', (_name, spoil) => {
    const result = recordedResult();
    spoil(result);
    const answer = { id: 'modr-1', model: 'omni-moderation-latest', results: [result] };
    expect(ModerationResponseSchema.safeParse(answer).success).toBe(false);
    expect(openAiSpec.errorsFor('CreateModerationResponse', answer)).not.toEqual([]);
  });
});
