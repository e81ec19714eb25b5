import type { MultipartRequest } from '../hub/endpoint-adapter';
import { expectOpenAiValid } from '../gemini/testing/expect-openai-valid';
import { openAiTranscriptionsAdapter, transcriptionUsage } from './openai-transcriptions-adapter';
import { jsonAnswer, multipartRequestOf, readFixture, readSession, sentForm } from './testing/media-fixtures';

const channel = { baseUrl: 'https://api.example.com/v1' };
const transcriptions = openAiTranscriptionsAdapter('audio/transcriptions');
const translations = openAiTranscriptionsAdapter('audio/translations');

describe('openAiTranscriptionsAdapter on the recorded sessions', () => {
  it.each([
    ['session-transcription-json.json', 'json', 2],
    ['session-transcription-verbose-json.json', 'verbose_json', 2],
  ])('%s: the form passed through, the %s answer as sent, its seconds read', (name, format, seconds) => {
    const [entry] = readSession(name);
    if (!entry) throw new Error('empty session');
    const request = multipartRequestOf(entry.RequestBody as string[]);
    expect(request.fields).toEqual([
      ['model', 'whisper-1'],
      ['response_format', format],
    ]);
    const built = transcriptions.buildRequest({ channel, key: 'sk-1', request, upstreamModel: 'whisper-1' });
    expect(built.url).toBe('https://api.example.com/v1/audio/transcriptions');
    expect(sentForm(built)).toEqual({ kind: 'multipart', fields: request.fields, files: [{ field: 'file', file: request.files[0] }] });

    const text = JSON.stringify(entry.ResponseBody);
    const answer = jsonAnswer(transcriptions.convertResponse(text, { request, publicModel: 'my-whisper', contentType: 'application/json' }));
    expect(answer.text).toBe(text);
    expect(answer.body['text']).toBe('Hello, world! This is a test.');
    expectOpenAiValid(format === 'json' ? 'CreateTranscriptionResponseJson' : 'CreateTranscriptionResponseVerboseJson', answer.body);
    expect(answer.usage).toEqual({ promptTokens: 0, completionTokens: 0, units: seconds });
  });
});

describe('transcriptionUsage', () => {
  it('reads the billed seconds of a verbose answer with words (transcription-verbose-json-words.json)', () => {
    expect(transcriptionUsage(JSON.parse(readFixture('media/transcription-verbose-json-words.json')))).toEqual({ promptTokens: 0, completionTokens: 0, units: 37 });
  });

  it.each([
    ['tokens (gpt-4o-transcribe)', { text: 'x', usage: { type: 'tokens', input_tokens: 14, output_tokens: 45, total_tokens: 59 } }, { promptTokens: 14, completionTokens: 45, units: 0 }],
    ['a verbose duration without usage', { text: 'x', duration: 12.5 }, { promptTokens: 0, completionTokens: 0, units: 12.5 }],
    ['nothing: the relay measures the upload', { text: 'x' }, { promptTokens: 0, completionTokens: 0, units: 0, unitsUnknown: true }],
  ])('%s', (_name, answer, usage) => {
    expect(transcriptionUsage(answer)).toEqual(usage);
  });
});

describe('openAiTranscriptionsAdapter: formats, translations, refusals', () => {
  const formWith = (format?: string): MultipartRequest => ({
    fields: [['model', 'whisper-1'], ...(format ? [['response_format', format] as const] : [])],
    files: [{ field: 'file', filename: 'a.mp3', contentType: 'audio/mpeg', size: 3, ref: 'spool/a' }],
  });

  it.each([
    ['text', 'text/plain', 'text/plain; charset=utf-8'],
    ['srt', 'application/x-subrip', 'application/x-subrip'],
    ['vtt', undefined, 'text/plain; charset=utf-8'],
  ])('answers %s as text with the upstream’s content type', (format, contentType, expected) => {
    const body = '1\n00:00:00,000 --> 00:00:01,700\nHello, world!\n';
    const answer = transcriptions.convertResponse(body, { request: formWith(format), publicModel: 'w', contentType });
    expect(answer).toEqual({ ok: true, kind: 'text', contentType: expected, text: body, usage: { promptTokens: 0, completionTokens: 0, units: 0, unitsUnknown: true } });
  });

  it('reads a json answer when the caller named no format, and fails one that is no transcription', () => {
    const context = { request: formWith(), publicModel: 'w', contentType: 'application/json' };
    expect(jsonAnswer(transcriptions.convertResponse('{"text":"hi","usage":{"type":"duration","seconds":3}}', context)).usage.units).toBe(3);
    expect(transcriptions.convertResponse('{"segments":[]}', context)).toMatchObject({ ok: false, error: { code: 'bad_response' } });
    expect(transcriptions.convertResponse('hi', context)).toMatchObject({ ok: false, error: { code: 'bad_response' } });
  });

  it('sends translations to {base_url}/audio/translations', () => {
    const built = translations.buildRequest({ channel, key: 'k', request: formWith('json'), upstreamModel: 'whisper-1' });
    expect(built.url).toBe('https://api.example.com/v1/audio/translations');
    expect(translations.endpoint).toBe('audio_transcriptions');
  });

  it('refuses a streamed transcription by name', () => {
    const request: MultipartRequest = { ...formWith('json'), fields: [...formWith('json').fields, ['stream', 'true']] };
    expect(() => transcriptions.buildRequest({ channel, key: 'k', request, upstreamModel: 'gpt-4o-transcribe' })).toThrow(
      expect.objectContaining({ status: 400, param: 'stream' }),
    );
  });
});
