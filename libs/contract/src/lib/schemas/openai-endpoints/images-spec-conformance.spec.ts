import fc from 'fast-check';
import {
  accepted,
  asForm,
  disagreements,
  fieldDifferences,
  FILE,
  formAsServerShowsIt,
  formInSpecTerms,
  verdictsByField,
  verdictsOn,
  type RouteUnderTest,
} from '../../../testing/endpoint-conformance';
import { fixturePath, readJson } from '../../../testing/fixtures';
import { createOpenAiSpecValidator, loadOpenAiSpec } from '../../../testing/openai-spec';
import { specArbitrary } from '../../../testing/openai-spec-arbitrary';
import { documentedExamples, type FormField } from '../../../testing/openai-spec-examples';
import { ImageEditFieldsSchema, ImageGenerationRequestSchema, ImagesResponseSchema } from './images.schema';

// /v1/images/generations and /v1/images/edits (multipart) against OpenAI's description
// (test-fixtures/spec): see completions-spec-conformance. The edit form is compared in OpenAI's
// terms and handed to ours as the server shows it (text fields, file parts; see endpoint-conformance).
const document = loadOpenAiSpec();
const openAiSpec = createOpenAiSpecValidator(document);

const shared = {
  n: { valid: [1, 10], invalid: [0, 11, 1.5, 'two'] },
  response_format: { valid: ['url', 'b64_json'], invalid: ['png'] },
  output_format: { valid: ['png', 'jpeg', 'webp'], invalid: ['gif'] },
  output_compression: { valid: [0, 55, 100], invalid: [1.5, 'max'] },
  background: { valid: ['transparent', 'opaque', 'auto'], invalid: ['white'] },
  partial_images: { valid: [0, 3], invalid: [4, -1] },
};
const orNull = ({ valid, invalid }: { valid: unknown[]; invalid: unknown[] }) => ({ valid: [...valid, null], invalid });

const generation: RouteUnderTest = {
  ours: ImageGenerationRequestSchema,
  specName: 'CreateImageRequest',
  base: { prompt: 'A cute baby sea otter' },
  pools: {
    prompt: { valid: ['A cute baby sea otter', 'x'.repeat(32_000)], invalid: [5, null] },
    // Optional and nullable, as OpenAI has it: the relay then routes on dall-e-2 (DEFAULT_IMAGE_MODEL).
    model: { valid: ['gpt-image-1.5', 'dall-e-3', 'my-painter', null], invalid: [5] },
    n: orNull(shared.n),
    quality: { valid: ['standard', 'hd', 'low', 'medium', 'high', 'auto', null], invalid: ['ultra', 5] },
    response_format: orNull(shared.response_format),
    output_format: orNull(shared.output_format),
    output_compression: orNull(shared.output_compression),
    stream: { valid: [true, false, null], invalid: ['true'] },
    partial_images: orNull(shared.partial_images),
    size: { valid: ['1024x1024', 'auto', '1536x864', null], invalid: [1024] },
    moderation: { valid: ['low', 'auto', null], invalid: ['high'] },
    background: orNull(shared.background),
    style: { valid: ['vivid', 'natural', null], invalid: ['anime'] },
    user: { valid: ['user-1234'], invalid: [null, 5] },
  },
};

const edit: RouteUnderTest = {
  ours: ImageEditFieldsSchema,
  specName: 'CreateImageEditRequest',
  base: { image: FILE, prompt: 'Add a watercolor effect' },
  view: asForm,
  pools: {
    image: { valid: [FILE, [FILE], Array(16).fill(FILE)], invalid: [Array(17).fill(FILE)] },
    mask: { valid: [FILE], invalid: [] },
    prompt: { valid: ['Add a watercolor effect', 'x'.repeat(32_000)], invalid: [['one', 'two']] },
    model: { valid: ['gpt-image-1.5', 'dall-e-2', 'my-painter'], invalid: [['one', 'two']] },
    quality: { valid: ['standard', 'low', 'medium', 'high', 'auto'], invalid: ['hd', 'ultra'] },
    size: { valid: ['1024x1024', 'auto', '1536x864'], invalid: [['one', 'two']] },
    input_fidelity: { valid: ['high', 'low'], invalid: ['medium'] },
    stream: { valid: [true, false], invalid: ['yes'] },
    user: { valid: ['user-1234'], invalid: [['one', 'two']] },
    ...shared,
  },
};

type SessionEntry = { RequestBody: unknown; ResponseBody: unknown };
const session = (name: string) => (readJson(fixturePath('media', name)) as { Entries: SessionEntry[] }).Entries[0]!;
const recordings = ['session-image-generation-b64-gpt-image-1.json', 'session-image-generation-url-dall-e-3.json'].map(session);

describe.each([
  ['CreateImageRequest', generation, ['prompt']],
  ['CreateImageEditRequest (multipart)', edit, ['image', 'prompt']],
] as const)('%s, field by field', (_name, route, required) => {
  it('names the same fields, with the same strings', () => {
    expect(fieldDifferences(document, route.specName, route.ours as typeof ImageEditFieldsSchema)).toEqual({ onlyOurs: [], onlyTheirs: [], strings: [] });
  });

  it.each(Object.keys(route.pools))('%s: both accept the valid values, both refuse the others', (field) => {
    const { actual, expected } = verdictsByField(route, openAiSpec, field);
    expect(actual).toEqual(expected);
  });

  it('generated bodies mixing every field: both agree on each', () => {
    const { wrong, valid, spoiled } = disagreements(route, openAiSpec, required);
    expect(wrong).toEqual([]);
    expect(Math.min(valid, spoiled)).toBeGreaterThan(120);
  });
});

describe('documented and recorded image requests', () => {
  it('the documented generation requests (whole, streamed) and the recorded ones (gpt-image-1, dall-e-3) are accepted by both', () => {
    const documented = documentedExamples(document, '/images/generations').map(({ request }) => (request as { body: object }).body);
    expect(documented).toHaveLength(2);
    for (const body of [...documented, ...recordings.map(({ RequestBody }) => RequestBody as object)]) {
      expect(verdictsOn(generation, openAiSpec, body)).toEqual(accepted);
    }
  });

  it('the documented edit forms (four image[] files, then streamed) are accepted by both', () => {
    const forms = documentedExamples(document, '/images/edits').map(({ request }) => (request as { fields: FormField[] }).fields);
    expect(forms.map((fields) => fields.filter(([name]) => name === 'image[]').length)).toEqual([4, 4]);
    for (const fields of forms) {
      expect(ImageEditFieldsSchema.safeParse(formAsServerShowsIt(fields)).error?.issues).toBeUndefined();
      expect(openAiSpec.errorsFor(edit.specName, formInSpecTerms(document, edit.specName, fields))).toEqual([]);
    }
  });
});

describe('image requests: where ours differs, on purpose', () => {
  const oursOnly = { ours: expect.stringMatching(/^refuses/), openai: 'accepts' };

  it.each([
    ['an empty prompt: nothing to draw', { prompt: '' }],
    ['a prompt over 32000 characters, the longest OpenAI’s description allows (its schema sets no bound)', { prompt: 'x'.repeat(32_001) }],
    ['output_compression beyond 0–100, the percentage the description states', { output_compression: 101 }],
    ['output_compression below 0', { output_compression: -1 }],
    ['an empty size: images are priced by their size', { size: '' }],
    ['an empty model name: the relay routes on it', { model: '' }],
  ])('refused by ours only, on both routes: %s', (_name, fields) => {
    expect(verdictsOn(generation, openAiSpec, { ...generation.base, ...fields })).toEqual(oursOnly);
    expect(verdictsOn(edit, openAiSpec, { ...edit.base, ...fields })).toEqual(oursOnly);
  });

  it('the JSON form of an edit (images by URL or file id) is not taken: the relay’s route is multipart, streamed to the upstream', () => {
    const operation = document.paths?.['/images/edits']?.['post'] as {
      requestBody: { content: Record<string, { examples: Record<string, { value: Record<string, unknown> }> }> };
    };
    const { json_with_url: byUrl } = operation.requestBody.content['application/json']!.examples;
    expect(openAiSpec.errorsFor('EditImageBodyJsonParam', byUrl!.value)).toEqual([]);
    expect(ImageEditFieldsSchema.safeParse(byUrl!.value).error?.issues.map((issue) => issue.path.join('.'))).toEqual(['image']);
    const multipart = operation.requestBody.content['multipart/form-data']!.examples['multipart_edit']!.value;
    expect(verdictsOn(edit, openAiSpec, { ...multipart, image: FILE })).toEqual(accepted);
  });

  it('unknown fields are accepted by both, and ours keeps them to forward', () => {
    expect(verdictsOn(generation, openAiSpec, { ...generation.base, seed: 7 })).toEqual(accepted);
    expect(ImageGenerationRequestSchema.parse({ ...generation.base, seed: 7 })).toMatchObject({ seed: 7 });
  });
});

describe('ImagesResponse', () => {
  it('answers drawn from OpenAI’s schema with images in them are read by ours', () => {
    const answers = fc.sample(specArbitrary(document, 'ImagesResponse'), { numRuns: 200, seed: 1 });
    const withImages = answers.filter((answer) => 'data' in (answer as object));
    expect(withImages.length).toBeGreaterThan(50);
    for (const answer of withImages) {
      expect(openAiSpec.errorsFor('ImagesResponse', answer)).toEqual([]);
      expect(ImagesResponseSchema.safeParse(answer).error?.issues).toBeUndefined();
    }
  });

  it('an answer without data: OpenAI’s schema requires only created, ours refuses (no images to deliver or price)', () => {
    expect(openAiSpec.errorsFor('ImagesResponse', { created: 1_713_833_628 })).toEqual([]);
    expect(ImagesResponseSchema.safeParse({ created: 1_713_833_628 }).success).toBe(false);
  });

  it('the documented answer and the recorded ones (gpt-image-1 b64 with usage, dall-e-3 url, an edit) are read by both', () => {
    const [documented, streamed] = documentedExamples(document, '/images/generations').map(({ answer }) => answer);
    expect(streamed).toEqual({ kind: 'stream' });
    const answers = [
      (documented as { value: unknown }).value,
      ...recordings.map(({ ResponseBody }) => ResponseBody),
      readJson(fixturePath('media', 'image-edit-b64.json')),
    ];
    for (const answer of answers) {
      expect(ImagesResponseSchema.safeParse(answer).error?.issues).toBeUndefined();
      expect(openAiSpec.errorsFor('ImagesResponse', answer)).toEqual([]);
    }
  });

  it.each([
    ['a fractional created', { created: 1.5, data: [] }],
    ['data that is not a list', { created: 1, data: { url: 'https://example.com/a.png' } }],
    ['an image whose b64_json is not text', { created: 1, data: [{ b64_json: 5 }] }],
  ])('answers both refuse: %s', (_name, answer) => {
    expect(ImagesResponseSchema.safeParse(answer).success).toBe(false);
    expect(openAiSpec.errorsFor('ImagesResponse', answer)).not.toEqual([]);
  });
});
