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
import {
  SPEECH_FORMATS,
  SpeechRequestSchema,
  TRANSCRIPTION_FORMATS,
  TranscriptionFieldsSchema,
  TranscriptionSchema,
  TranslationFieldsSchema,
} from './audio.schema';

// /v1/audio/speech, /v1/audio/transcriptions and /v1/audio/translations (both multipart) against
// OpenAI's description (test-fixtures/spec): see completions- and images-spec-conformance.
const document = loadOpenAiSpec();
const openAiSpec = createOpenAiSpecValidator(document);

const speech: RouteUnderTest = {
  ours: SpeechRequestSchema,
  specName: 'CreateSpeechRequest',
  base: { model: 'gpt-4o-mini-tts', input: 'The quick brown fox', voice: 'alloy' },
  pools: {
    model: { valid: ['tts-1', 'gpt-4o-mini-tts', 'my-voice-model'], invalid: [null, 1] },
    input: { valid: ['The quick brown fox', 'x'.repeat(4096)], invalid: ['x'.repeat(4097), 5, null] },
    voice: { valid: ['alloy', 'fable', 'my-cloned-voice', { id: 'voice_1234' }], invalid: [{}, { id: 5 }, 5, null] },
    instructions: { valid: ['Speak softly', 'x'.repeat(4096)], invalid: ['x'.repeat(4097), null] },
    response_format: { valid: [...SPEECH_FORMATS], invalid: ['ogg', null] },
    speed: { valid: [0.25, 1, 4], invalid: [0.24, 4.01, '1', null] },
    stream_format: { valid: ['sse', 'audio'], invalid: ['chunked'] },
  },
};

const audioFields = {
  file: { valid: [FILE], invalid: [[FILE, FILE]] },
  model: { valid: ['whisper-1', 'gpt-4o-transcribe', 'my-listener'], invalid: [['one', 'two']] },
  prompt: { valid: ['Names: Ada, Grace', ''], invalid: [['one', 'two']] },
  temperature: { valid: [0, 0.2, 1], invalid: ['warm'] },
};
const transcription: RouteUnderTest = {
  ours: TranscriptionFieldsSchema,
  specName: 'CreateTranscriptionRequest',
  base: { file: FILE, model: 'whisper-1' },
  view: asForm,
  pools: {
    ...audioFields,
    language: { valid: ['en'], invalid: [['en', 'fr']] },
    languages: { valid: [['en'], ['en', 'fr']], invalid: ['en'] },
    keywords: { valid: [['OpenAI'], ['Ada', 'Grace']], invalid: ['OpenAI'] },
    response_format: { valid: [...TRANSCRIPTION_FORMATS], invalid: ['mp3'] },
    include: { valid: [['logprobs']], invalid: [['segments'], 'logprobs'] },
    timestamp_granularities: { valid: [['word'], ['segment'], ['word', 'segment']], invalid: [['char'], 'word'] },
    stream: { valid: [true, false], invalid: ['yes'] },
    known_speaker_names: { valid: [['agent'], Array(4).fill('agent')], invalid: [Array(5).fill('agent'), 'agent'] },
    known_speaker_references: { valid: [['data:audio/wav;base64,AAA']], invalid: [Array(5).fill('data:audio/wav;base64,AAA')] },
  },
};
const translation: RouteUnderTest = {
  ours: TranslationFieldsSchema,
  specName: 'CreateTranslationRequest',
  base: { file: FILE, model: 'whisper-1' },
  view: asForm,
  pools: { ...audioFields, response_format: { valid: ['json', 'text', 'srt', 'verbose_json', 'vtt'], invalid: ['diarized_json', 'mp3'] } },
};

const wordsAnswer = readJson(fixturePath('media', 'transcription-verbose-json-words.json'));
type SessionEntry = { RequestBody: string[]; ResponseBody: unknown };
const session = (name: string) => (readJson(fixturePath('media', name)) as { Entries: SessionEntry[] }).Entries[0]!;
const recordings = ['session-transcription-json.json', 'session-transcription-verbose-json.json'].map(session);
/** A recorded multipart body (its raw lines) as form fields; a file part keeps its name, not its bytes. */
const formOf = (lines: readonly string[]): FormField[] =>
  lines.flatMap((line, index) => {
    const part = /^Content-Disposition: form-data; name=([^;\s]+)(?:; filename="([^"]*)")?/.exec(line);
    if (!part) return [];
    return [[part[1]!, part[2] !== undefined ? { file: part[2] } : (lines[index + 2] ?? '')] as const];
  });

describe.each([
  ['CreateSpeechRequest', speech, ['model', 'input', 'voice'], []],
  ['CreateTranscriptionRequest (multipart)', transcription, ['file', 'model'], ['chunking_strategy']],
  ['CreateTranslationRequest (multipart)', translation, ['file', 'model'], []],
] as const)('%s, field by field', (_name, route, required, onlyTheirs) => {
  it(`names the same fields, with the same strings${onlyTheirs.length ? ` (but ${onlyTheirs.join(', ')})` : ''}`, () => {
    expect(fieldDifferences(document, route.specName, route.ours as typeof SpeechRequestSchema)).toEqual({ onlyOurs: [], onlyTheirs, strings: [] });
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

describe('documented and recorded audio requests', () => {
  it('the documented speech requests (audio, sse) are accepted by both', () => {
    const bodies = documentedExamples(document, '/audio/speech').map(({ request }) => (request as { body: object }).body);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(verdictsOn(speech, openAiSpec, body)).toEqual(accepted);
  });

  it.each([
    ['the documented transcription forms (plain, diarized, streamed, logprobs, word and segment timestamps)', '/audio/transcriptions', transcription, 6],
    ['the documented translation form', '/audio/translations', translation, 1],
  ])('%s are accepted by both', (_name, path, route, count) => {
    const forms = documentedExamples(document, path).map(({ request }) => (request as { fields: FormField[] }).fields);
    expect(forms).toHaveLength(count);
    for (const fields of forms) {
      expect(route.ours.safeParse(formAsServerShowsIt(fields)).error?.issues).toBeUndefined();
      expect(openAiSpec.errorsFor(route.specName, formInSpecTerms(document, route.specName, fields))).toEqual([]);
    }
  });

  it('the recorded transcription forms (openai-dotnet: json, verbose_json) are accepted by both', () => {
    for (const { RequestBody } of recordings) {
      const fields = formOf(RequestBody);
      expect(fields.map(([name]) => name)).toEqual(['file', 'model', 'response_format']);
      expect(TranscriptionFieldsSchema.safeParse(formAsServerShowsIt(fields)).error?.issues).toBeUndefined();
      expect(openAiSpec.errorsFor(transcription.specName, formInSpecTerms(document, transcription.specName, fields))).toEqual([]);
    }
  });
});

describe('audio requests: where ours differs, on purpose', () => {
  const oursOnly = { ours: expect.stringMatching(/^refuses/), openai: 'accepts' };
  const on = (route: RouteUnderTest, fields: object) => verdictsOn(route, openAiSpec, { ...route.base, ...fields });

  it.each([
    ['empty speech input: nothing to say, and speech is priced per character', speech, { input: '' }],
    ['an empty voice name', speech, { voice: '' }],
    ['a transcription temperature beyond 0–1, the range OpenAI’s description states (its schema sets none)', transcription, { temperature: 1.5 }],
    ['a translation temperature below 0', translation, { temperature: -0.5 }],
    ['an empty language', transcription, { language: '' }],
    ['an empty model name: the relay routes on it', translation, { model: '' }],
  ])('refused by ours only: %s', (_name, route, fields) => {
    expect(on(route, fields)).toEqual(oursOnly);
  });

  it.each([
    ['speech', speech, { seed: 7 }],
    ['speech, a custom voice with more than its id', speech, { voice: { id: 'voice_1234', style: 'calm' } }],
    ['transcription', transcription, { diarization: 'on' }],
    ['translation', translation, { language: 'de' }],
  ])('unknown fields are kept and forwarded by ours (other upstreams take more), though OpenAI’s schema allows none: %s', (_name, route, fields) => {
    const body = { ...route.base, ...fields };
    expect(on(route, fields)).toEqual({ ours: 'accepts', openai: expect.stringMatching(/^refuses/) });
    expect(openAiSpec.errorsFor(route.specName, body).join('\n')).toContain('must NOT have additional properties');
    expect(route.ours.parse((route.view ?? ((value) => value))(body))).toMatchObject(fields);
  });

  it('chunking_strategy is kept as sent, unchecked: the SDKs send an object as bracketed sub-fields, which the relay forwards', () => {
    const fields = { chunking_strategy: 'auto', 'chunking_strategy[type]': 'server_vad' };
    expect(TranscriptionFieldsSchema.parse({ ...asForm(transcription.base), ...fields })).toMatchObject(fields);
    expect(openAiSpec.errorsFor(transcription.specName, { ...transcription.base, chunking_strategy: 'auto' })).toEqual([]);
  });
});

describe('transcription and translation answers', () => {
  it.each([
    'CreateTranscriptionResponseJson',
    'CreateTranscriptionResponseVerboseJson',
    'CreateTranscriptionResponseDiarizedJson',
    'CreateTranslationResponseJson',
    'CreateTranslationResponseVerboseJson',
  ])('answers drawn from OpenAI’s %s are read by ours', (specName) => {
    for (const answer of fc.sample(specArbitrary(document, specName), { numRuns: 150, seed: 1 })) {
      expect(openAiSpec.errorsFor(specName, answer)).toEqual([]);
      expect(TranscriptionSchema.safeParse(answer).error?.issues).toBeUndefined();
    }
  });

  it('the documented answers are read by both (word and segment timestamps once their elisions are dropped)', () => {
    const components: Record<string, string> = {
      Default: 'CreateTranscriptionResponseJson',
      Diarization: 'CreateTranscriptionResponseDiarizedJson',
      Logprobs: 'CreateTranscriptionResponseJson',
      'Word timestamps': 'CreateTranscriptionResponseVerboseJson',
      'Segment timestamps': 'CreateTranscriptionResponseVerboseJson',
    };
    const examples = documentedExamples(document, '/audio/transcriptions');
    expect(examples.map(({ title, answer }) => [title, answer?.kind === 'json' ? answer.repaired : answer?.kind])).toEqual([
      ['Default', false],
      ['Diarization', false],
      ['Streaming', 'stream'],
      ['Logprobs', false],
      ['Word timestamps', true],
      ['Segment timestamps', true],
    ]);
    const [translated] = documentedExamples(document, '/audio/translations');
    const answers = [
      ...examples.filter(({ title }) => title in components).map(({ title, answer }) => [components[title]!, (answer as { value: unknown }).value] as const),
      ['CreateTranslationResponseJson', (translated?.answer as { value: unknown }).value] as const,
    ];
    for (const [specName, answer] of answers) {
      expect(TranscriptionSchema.safeParse(answer).error?.issues).toBeUndefined();
      expect(openAiSpec.errorsFor(specName, answer)).toEqual([]);
    }
  });

  it.each([
    ['session-transcription-json.json', 'CreateTranscriptionResponseJson', recordings[0]!.ResponseBody],
    ['session-transcription-verbose-json.json', 'CreateTranscriptionResponseVerboseJson', recordings[1]!.ResponseBody],
    ['transcription-verbose-json-words.json', 'CreateTranscriptionResponseVerboseJson', wordsAnswer],
  ])('the recorded answer %s is read by both', (_name, specName, answer) => {
    expect(TranscriptionSchema.safeParse(answer).error?.issues).toBeUndefined();
    expect(openAiSpec.errorsFor(specName, answer)).toEqual([]);
  });

  it.each([
    ['an answer without text', { language: 'english', duration: 1 }],
    ['a text that is not text', { text: 5 }],
    ['segments that are not a list', { text: 'Hi', language: 'english', duration: 1, segments: { id: 0 } }],
  ])('answers both refuse: %s', (_name, answer) => {
    expect(TranscriptionSchema.safeParse(answer).success).toBe(false);
    expect(openAiSpec.errorsFor('CreateTranscriptionResponseVerboseJson', answer)).not.toEqual([]);
  });
});
