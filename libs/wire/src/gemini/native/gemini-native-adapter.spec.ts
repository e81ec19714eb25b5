import { readFixture } from '../../testing/fixtures';
import { geminiNativeAdapter } from './gemini-native-adapter';
import { readGeminiCassette, readGeminiStreamLines } from '../testing/gemini-fixtures';

const channel = { baseUrl: 'https://generativelanguage.googleapis.com/v1beta/' };
const body = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { seed: 1 } };
const build = (extra: Partial<Parameters<typeof geminiNativeAdapter.buildRequest>[0]> = {}) =>
  geminiNativeAdapter.buildRequest({ channel, key: 'AIza-channel-key', body, upstreamModel: 'gemini-2.5-flash', headers: {}, stream: false, ...extra });

describe('geminiNativeAdapter.buildRequest', () => {
  it('generateContent on the channel’s model, the key in x-goog-api-key, never in the URL', () => {
    const call = build();
    expect(call.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent');
    expect(call.headers).toEqual({ 'x-goog-api-key': 'AIza-channel-key', 'content-type': 'application/json', accept: 'application/json' });
    expect(call.url).not.toContain('AIza');
  });

  it('a stream is streamGenerateContent with alt=sse; a models/ prefix and odd characters are handled', () => {
    const call = build({ stream: true, upstreamModel: 'models/tuned model' });
    expect(call.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/tuned%20model:streamGenerateContent?alt=sse');
    expect(call.headers['accept']).toBe('text/event-stream');
  });

  it('forwards the caller’s bytes as they came (no model in a Gemini body), else the parsed request', () => {
    const raw = Buffer.from('{"contents":[{"parts":[{"text":"Hi"}]}],  "x_extra":1}');
    expect(build({ rawBody: raw }).body).toBe(raw);
    expect(JSON.parse(String(build().body))).toEqual(body);
  });
});

describe('geminiNativeAdapter.convertResponse', () => {
  const recorded = readFixture('gemini/generate-content-text.json');

  it('keeps every field and part, modelVersion the caller’s model, usage read from usageMetadata', () => {
    const converted = geminiNativeAdapter.convertResponse(recorded, 'my-gemini');
    if (!converted.ok) throw converted.error;
    const original = JSON.parse(recorded) as Record<string, unknown>;
    expect(converted.body).toEqual({ ...original, modelVersion: 'my-gemini' });
    expect(JSON.parse(converted.text ?? '')).toEqual(converted.body);
    // Thinking is output: candidates 28 + thoughts 244.
    expect(converted.usage).toEqual({ promptTokens: 9, completionTokens: 272 });
  });

  it('an answer already under the caller’s name goes out as the very same text', () => {
    const same = JSON.stringify({ ...JSON.parse(recorded), modelVersion: 'gemini-3-pro-preview' });
    const converted = geminiNativeAdapter.convertResponse(same, 'gemini-3-pro-preview');
    expect(converted.ok && converted.text).toBe(same);
  });

  it('no usageMetadata: no usage (the relay counts); not a JSON object: a bad_response failure', () => {
    const converted = geminiNativeAdapter.convertResponse('{"candidates":[]}', 'm');
    expect(converted.ok && converted.usage).toBeUndefined();
    for (const text of ['[1]', 'nope']) {
      const failed = geminiNativeAdapter.convertResponse(text, 'm');
      expect(failed.ok ? undefined : failed.error.code).toBe('bad_response');
    }
  });
});

describe('geminiNativeAdapter stream (passthrough)', () => {
  const run = (events: readonly string[], publicModel = 'my-gemini') => {
    const transformer = geminiNativeAdapter.createStreamTransformer({ publicModel, callerWantsUsage: false, secrets: ['AIza-channel-key'] });
    const steps = events.flatMap((data) => transformer.transform({ data }));
    steps.push(...transformer.finish());
    return { transformer, steps };
  };

  it('a recorded tool-call stream: every event as it came but modelVersion, complete at the finish, usage from the last metadata', () => {
    const events = readGeminiStreamLines('generate-content-tool-call.stream.jsonl');
    const { transformer, steps } = run(events);
    expect(steps).toHaveLength(events.length);
    steps.forEach((step, index) => {
      expect(step.kind).toBe('chunk');
      if (step.kind !== 'chunk') return;
      expect(step.event).toBeUndefined();
      expect(JSON.parse(step.json)).toEqual({ ...JSON.parse(events[index] ?? ''), modelVersion: 'my-gemini' });
    });
    expect(transformer.complete).toBe(true);
    expect(transformer.usage).toEqual({ promptTokens: 29, completionTokens: 60 });
    expect(transformer.deliveredText).toContain('San Francisco');
  });

  it('events already under the caller’s name pass as the same text', () => {
    const events = readGeminiStreamLines('generate-content-text.stream.jsonl');
    const { steps } = run(events, 'gemini-3-pro-preview');
    expect(steps.map((step) => (step.kind === 'chunk' ? step.json : ''))).toEqual(events);
  });

  it('cut before the finish: not complete, the prompt counted, the completion left to the relay', () => {
    const [first] = readGeminiStreamLines('generate-content-text.stream.jsonl');
    const { transformer } = run([first ?? '']);
    expect(transformer.complete).toBe(false);
    expect(transformer.usage).toEqual({ promptTokens: 9, completionTokens: 0, completionUnknown: true });
    expect(transformer.deliveredText).toBe('There are **3**');
  });

  it('recorded cassette streams (thought signatures, a tool round trip) relay every event', () => {
    for (const name of ['cassette-stream-thought-signature.yaml', 'cassette-stream-tool-roundtrip.yaml']) {
      for (const interaction of readGeminiCassette(name)) {
        const events = interaction.responseEvents ?? [];
        const { transformer, steps } = run(events);
        expect(steps.every((step) => step.kind === 'chunk')).toBe(true);
        expect(transformer.complete).toBe(true);
      }
    }
  });

  it('an error object mid-stream ends it as a failure, the channel key redacted; so does an event that is not JSON', () => {
    const error = JSON.stringify({ error: { code: 503, message: 'overloaded for AIza-channel-key', status: 'UNAVAILABLE' } });
    const { steps, transformer } = run([readGeminiStreamLines('generate-content-text.stream.jsonl')[0] ?? '', error, '{"late":1}']);
    expect(steps.map((step) => step.kind)).toEqual(['chunk', 'error']);
    const failure = steps[1];
    expect(failure?.kind === 'error' && failure.error.message).not.toContain('AIza-channel-key');
    expect(transformer.complete).toBe(false);
    expect(run(['not json']).steps).toEqual([{ kind: 'error', error: expect.objectContaining({ code: 'bad_response' }) }]);
  });

  it('a blocked prompt (no candidates, a blockReason) is a complete answer', () => {
    const { transformer } = run([JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } })]);
    expect(transformer.complete).toBe(true);
    expect(transformer.usage).toEqual({ promptTokens: 4, completionTokens: 0 });
  });
});

describe('geminiNativeAdapter.mapErrorResponse', () => {
  it('is the Gemini channel’s own mapping: a recorded 429 is retryable and names RESOURCE_EXHAUSTED', () => {
    const failure = geminiNativeAdapter.mapErrorResponse(429, readFixture('gemini/error-429-resource-exhausted.json'), []);
    expect(failure).toMatchObject({ retryable: true, channelFault: true, error: { code: 'RESOURCE_EXHAUSTED' } });
  });

  it('a 400 the request caused keeps Gemini’s status name and is not retried', () => {
    const failure = geminiNativeAdapter.mapErrorResponse(400, JSON.stringify({ error: { code: 400, message: 'bad topK', status: 'INVALID_ARGUMENT' } }), []);
    expect(failure).toMatchObject({ retryable: false, error: { status: 400, code: 'INVALID_ARGUMENT', message: 'bad topK' } });
  });
});
