import { readFixture } from '../../testing/fixtures';
import { geminiAdapter } from '../index';
import { buildGeminiCall } from '../testing/gemini-channel';
import { readGeminiCassette, readGeminiStreamLines } from '../testing/gemini-fixtures';

const messages = [{ role: 'user', content: 'Hi' }];

describe('geminiAdapter', () => {
  it('posts a non-streamed request to :generateContent with the key in x-goog-api-key only', () => {
    const { url, headers, json } = buildGeminiCall({ messages }, 'gemini-2.5-flash');
    expect(url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent');
    expect(headers).toEqual({ 'x-goog-api-key': 'AIzaTestKey', 'content-type': 'application/json', accept: 'application/json' });
    expect(json).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] });
  });

  it('posts a stream to :streamGenerateContent?alt=sse, the recorded URL', () => {
    const [interaction] = readGeminiCassette('cassette-stream-thought-signature.yaml');
    const { url, headers } = buildGeminiCall({ messages, stream: true }, 'gemini-3-pro-preview');
    expect(url).toBe(interaction?.uri);
    expect(headers['accept']).toBe('text/event-stream');
  });

  it('accepts a model mapped as models/<name> and escapes what could leave the path', () => {
    expect(buildGeminiCall({ messages }, 'models/gemini-2.0-flash').url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent',
    );
    expect(buildGeminiCall({ messages }, 'x/../../files?key=1').url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/x%2F..%2F..%2Ffiles%3Fkey%3D1:generateContent',
    );
  });

  it('converts an answer with the current time and the caller’s model name', () => {
    const before = Math.floor(Date.now() / 1000);
    const converted = geminiAdapter.convertResponse(readFixture('gemini/generate-content-text.json'), 'gpt-4o-gizmo-g-1');
    expect(converted.ok).toBe(true);
    if (!converted.ok) return;
    expect(converted.body['model']).toBe('gpt-4o-gizmo-g-1');
    expect(converted.body['created']).toBeGreaterThanOrEqual(before);
  });

  it('creates a fresh stream transformer per answer', () => {
    const options = { publicModel: 'm', callerWantsUsage: true, secrets: [] };
    const first = geminiAdapter.createStreamTransformer(options);
    for (const data of readGeminiStreamLines('generate-content-text.stream.jsonl')) first.transform({ data });
    expect(first.complete).toBe(true);
    expect(geminiAdapter.createStreamTransformer(options).complete).toBe(false);
  });

  it('maps error bodies', () => {
    const failure = geminiAdapter.mapErrorResponse(429, readFixture('gemini/error-429-resource-exhausted.json'), []);
    expect(failure.error.code).toBe('RESOURCE_EXHAUSTED');
  });

  it('throws a 400 naming the parameter before anything is sent', () => {
    expect(() => buildGeminiCall({ messages, logprobs: true }, 'gemini-2.5-flash')).toThrow(
      expect.objectContaining({ status: 400, param: 'logprobs' }),
    );
  });
});
