import type { NativeBuildArgs } from '../../hub/native-adapter';
import { mapOpenAiErrorResponse } from '../../openai-chat/upstream/openai-error';
import { buildOpenaiResponsesRequest, openaiResponsesNativeAdapter } from './openai-responses-native-adapter';
import { ResponsesPassthroughStream } from './responses-passthrough-stream';
import { readFixture, readResponsesCassette, recordedResponses } from '../testing/responses-fixtures';

const KEY = 'sk-proj-channel-key-0123456789';

/** Recorded request bytes as the OpenAI Python SDK sent them (simonw/llm keeps them raw). */
const [streamText] = readResponsesCassette('cassette-stream-text.yaml');
const recordedBytes = Buffer.from(streamText!.requestText!);
const recordedBody = streamText!.requestJson;

const args = (overrides: Partial<NativeBuildArgs> = {}): NativeBuildArgs => ({
  channel: { baseUrl: 'https://api.openai.com/v1' },
  key: KEY,
  body: recordedBody,
  rawBody: recordedBytes,
  upstreamModel: 'gpt-5.5',
  headers: {},
  stream: true,
  ...overrides,
});

describe('openaiResponsesNativeAdapter.buildRequest', () => {
  it('forwards the recorded bytes as the same Buffer when the model needs no mapping', () => {
    expect(recordedBody['model']).toBe('gpt-5.5');
    expect(openaiResponsesNativeAdapter.buildRequest(args()).body).toBe(recordedBytes);
  });

  it.each(readResponsesCassette('cassette-reasoning-encrypted-roundtrip.yaml'))(
    'swaps the mapped model into the caller bytes, every other byte kept ($label)',
    ({ requestText, requestJson }) => {
      const raw = Buffer.from(requestText!);
      const request = openaiResponsesNativeAdapter.buildRequest(args({ body: requestJson, rawBody: raw, upstreamModel: 'gpt-5.5-2026-04-23', stream: false }));
      const sent = request.body.toString();
      expect(sent).not.toBe(requestText);
      expect(sent.replace('"model":"gpt-5.5-2026-04-23"', `"model":${JSON.stringify(requestJson['model'])}`)).toBe(requestText);
      expect(JSON.parse(sent)).toEqual({ ...requestJson, model: 'gpt-5.5-2026-04-23' });
    },
  );

  it('serialises the parsed body, model mapped, when there are no caller bytes (an assistant applied)', () => {
    const same = openaiResponsesNativeAdapter.buildRequest(args({ rawBody: undefined }));
    expect(same.body).toBe(JSON.stringify(recordedBody));
    const mapped = openaiResponsesNativeAdapter.buildRequest(args({ rawBody: undefined, upstreamModel: 'gpt-x' }));
    expect(JSON.parse(mapped.body.toString())).toEqual({ ...recordedBody, model: 'gpt-x' });
  });

  it.each([
    ['https://api.openai.com/v1', 'https://api.openai.com/v1/responses'],
    ['https://api.openai.com/v1/', 'https://api.openai.com/v1/responses'],
    ['http://127.0.0.1:8000/v1///', 'http://127.0.0.1:8000/v1/responses'],
  ])('posts to {base}/responses: %s → %s', (baseUrl, url) => {
    expect(openaiResponsesNativeAdapter.buildRequest(args({ channel: { baseUrl } })).url).toBe(url);
  });

  it('sends the channel key as a bearer token, JSON, and accepts what the call answers with', () => {
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    expect(openaiResponsesNativeAdapter.buildRequest(args({ headers: { 'openai-beta': 'x' } })).headers).toEqual({ ...headers, accept: 'text/event-stream' });
    expect(openaiResponsesNativeAdapter.buildRequest(args({ stream: false })).headers).toEqual({ ...headers, accept: 'application/json' });
  });

  it('streams through a ResponsesPassthroughStream', () => {
    const options = { publicModel: 'm', callerWantsUsage: false, secrets: [] };
    expect(openaiResponsesNativeAdapter.createStreamTransformer(options)).toBeInstanceOf(ResponsesPassthroughStream);
  });
});

describe('buildOpenaiResponsesRequest', () => {
  const channel = { baseUrl: 'https://api.openai.com/v1/' };

  it.each([
    ['GET', '/responses/resp_1', 'https://api.openai.com/v1/responses/resp_1'],
    ['DELETE', '/responses/resp_1', 'https://api.openai.com/v1/responses/resp_1'],
    ['GET', '/responses/resp_1/input_items?limit=2&order=asc', 'https://api.openai.com/v1/responses/resp_1/input_items?limit=2&order=asc'],
    ['POST', '/responses/resp_1/cancel', 'https://api.openai.com/v1/responses/resp_1/cancel'],
    ['GET', 'responses/resp_1', 'https://api.openai.com/v1/responses/resp_1'],
  ] as const)('%s %s → %s, no body, the channel key, JSON accepted', (method, path, url) => {
    expect(buildOpenaiResponsesRequest({ channel, key: KEY, method, path })).toEqual({
      method,
      url,
      headers: { authorization: `Bearer ${KEY}`, accept: 'application/json' },
      body: '',
    });
  });

  it('accepts an event stream when a retrieve asks to stream the response again', () => {
    const request = buildOpenaiResponsesRequest({ channel, key: KEY, method: 'GET', path: '/responses/resp_1?stream=true&starting_after=4' });
    expect(request.headers['accept']).toBe('text/event-stream');
  });
});

describe('openaiResponsesNativeAdapter.convertResponse', () => {
  const responses = recordedResponses();

  it('converts every recorded Response: 11 answers in 5 cassettes', () => {
    expect(responses.map((interaction) => interaction.label)).toHaveLength(11);
  });

  it.each(responses)('$label: model rewritten in the upstream bytes, the rest equal, usage read', ({ responseText }) => {
    const recorded = JSON.parse(responseText) as { model: string; usage: { input_tokens: number; output_tokens: number; input_tokens_details?: { cached_tokens: number } } };
    const converted = openaiResponsesNativeAdapter.convertResponse(responseText, 'my-model');
    if (!converted.ok) throw converted.error;
    expect(recorded.model).not.toBe('my-model');
    expect(converted.body).toEqual({ ...recorded, model: 'my-model' });
    // Byte-faithful: the one value differs, every other byte (spacing, 1.0, key order) is the upstream's.
    expect(converted.text!.split('"my-model"')).toHaveLength(2);
    expect(converted.text!.replace('"my-model"', JSON.stringify(recorded.model))).toBe(responseText);
    const cached = recorded.usage.input_tokens_details?.cached_tokens ?? 0;
    expect(converted.usage).toEqual({
      promptTokens: recorded.usage.input_tokens,
      completionTokens: recorded.usage.output_tokens,
      ...(cached > 0 ? { cacheReadTokens: cached } : {}),
    });
    expect(converted.deliveredChars).toBe(responseText.length);
  });

  it.each(responses)('$label: the upstream text as it came when the model is already the public name', ({ responseText }) => {
    const model = (JSON.parse(responseText) as { model: string }).model;
    const converted = openaiResponsesNativeAdapter.convertResponse(responseText, model);
    if (!converted.ok) throw converted.error;
    expect(converted.text).toBe(responseText);
    expect(converted.body).toEqual(JSON.parse(responseText));
  });

  it('reads the recorded counts of cassette-text.yaml', () => {
    const [interaction] = readResponsesCassette('cassette-text.yaml');
    const converted = openaiResponsesNativeAdapter.convertResponse(interaction!.responseText, 'my-model');
    expect(converted.ok && converted.usage).toEqual({ promptTokens: 14, completionTokens: 8 });
  });

  it('answers without usage when the upstream gave none readable', () => {
    const converted = openaiResponsesNativeAdapter.convertResponse('{"object":"response","model":"m","usage":{"input_tokens":"x"}}', 'm');
    expect(converted).toMatchObject({ ok: true, usage: undefined });
  });

  it.each(['not json', '[{"object":"response"}]', 'null', '"response"', '{"object":"response"'])('refuses a malformed answer %p', (text) => {
    expect(openaiResponsesNativeAdapter.convertResponse(text, 'm')).toEqual({
      ok: false,
      error: expect.objectContaining({ status: 502, type: 'upstream_error', code: 'bad_response' }),
    });
  });
});

describe('openaiResponsesNativeAdapter.mapErrorResponse', () => {
  it('keeps the status, code and param of the recorded 400 (cassette-error-400-invalid-value.yaml)', () => {
    const [interaction] = readResponsesCassette('cassette-error-400-invalid-value.yaml');
    const failure = openaiResponsesNativeAdapter.mapErrorResponse(interaction!.status, interaction!.responseText, [KEY]);
    expect(failure).toMatchObject({ retryable: false, channelFault: false });
    expect(failure.error).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'decimal_below_min_value', param: 'temperature' });
    expect(failure.error.message).toMatch(/temperature/);
  });

  it('keeps the null code of the recorded unsupported-parameter 400, as the chat adapter maps it', () => {
    const text = readFixture('openai-responses/error-400-unsupported-parameter-temperature.json');
    const failure = openaiResponsesNativeAdapter.mapErrorResponse(400, text, [KEY]);
    expect(failure.error).toMatchObject({ status: 400, code: null, param: 'temperature', message: "Unsupported parameter: 'temperature' is not supported with this model." });
    expect(failure).toEqual(mapOpenAiErrorResponse(400, text, [KEY]));
  });

  it('redacts the channel key planted in a recorded error message', () => {
    const [interaction] = readResponsesCassette('cassette-error-400-invalid-value.yaml');
    const planted = JSON.parse(interaction!.responseText) as { error: { message: string } };
    planted.error.message = `${planted.error.message} (key ${KEY})`;
    const failure = openaiResponsesNativeAdapter.mapErrorResponse(400, JSON.stringify(planted), [KEY]);
    expect(failure.error.code).toBe('decimal_below_min_value');
    expect(failure.error.message).toContain('[redacted]');
    expect(failure.error.message).not.toContain(KEY);
  });

  it('turns a 401 into a rejected key, and a 429 into a retryable channel fault, keeping the code', () => {
    const unauthorised = JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error', code: 'invalid_api_key' } });
    expect(openaiResponsesNativeAdapter.mapErrorResponse(401, unauthorised, [KEY])).toMatchObject({ keyRejected: true, retryable: true });
    const quota = JSON.stringify({ error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' } });
    const failure = openaiResponsesNativeAdapter.mapErrorResponse(429, quota, [KEY]);
    expect(failure).toMatchObject({ retryable: true, channelFault: true });
    expect(failure.error).toMatchObject({ status: 502, code: 'insufficient_quota' });
  });
});
