import type { NativeBuildArgs } from '../../hub/native-adapter';
import { mapAnthropicErrorResponse } from '../upstream/anthropic-error';
import { anthropicNativeAdapter, buildAnthropicCountTokensRequest } from './anthropic-native-adapter';
import { AnthropicPassthroughStream } from './anthropic-passthrough-stream';
import { readFixture } from '../testing/anthropic-fixtures';

const body = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: 'Hi' }],
  thinking: { type: 'enabled', budget_tokens: 2048 },
  container: 'container_011CZ',
  stream: true,
};
// Spaced as a caller may send it: forwarded bytes must be these, not a re-serialisation.
const rawBody = Buffer.from(JSON.stringify(body, null, 2));

const args = (overrides: Partial<NativeBuildArgs> = {}): NativeBuildArgs => ({
  channel: { baseUrl: 'https://api.anthropic.com/v1' },
  key: 'sk-ant-api03-channel-key',
  body,
  rawBody,
  upstreamModel: 'claude-sonnet-4-5',
  headers: { 'anthropic-version': '2023-06-01' },
  stream: true,
  ...overrides,
});

describe('anthropicNativeAdapter.buildRequest', () => {
  it('forwards the caller bytes as the same Buffer when the model needs no mapping', () => {
    const request = anthropicNativeAdapter.buildRequest(args());
    expect(request.body).toBe(rawBody);
  });

  it('swaps the mapped model into the caller\'s bytes when the channel names it otherwise, every other byte kept', () => {
    const request = anthropicNativeAdapter.buildRequest(args({ upstreamModel: 'claude-sonnet-4-5-20250929' }));
    const expected = rawBody.toString('utf8').replace(`"model": "${body.model}"`, '"model": "claude-sonnet-4-5-20250929"');
    expect(expected).not.toBe(rawBody.toString('utf8'));
    expect(request.body.toString()).toBe(expected);
  });

  it('re-serialises with the mapped model when there are no caller bytes to forward (an assistant applied)', () => {
    const request = anthropicNativeAdapter.buildRequest(args({ rawBody: undefined, upstreamModel: 'claude-sonnet-4-5-20250929' }));
    expect(typeof request.body).toBe('string');
    expect(JSON.parse(request.body.toString())).toEqual({ ...body, model: 'claude-sonnet-4-5-20250929' });
  });

  it('serialises the parsed body when no bytes were given (an assistant was applied)', () => {
    const request = anthropicNativeAdapter.buildRequest(args({ rawBody: undefined }));
    expect(request.body).toBe(JSON.stringify(body));
  });

  it.each([
    ['https://api.anthropic.com/v1', 'https://api.anthropic.com/v1/messages'],
    ['https://api.anthropic.com/v1/', 'https://api.anthropic.com/v1/messages'],
    ['http://127.0.0.1:4010/proxy/v1///', 'http://127.0.0.1:4010/proxy/v1/messages'],
  ])('posts to {base}/messages: %s → %s', (baseUrl, url) => {
    expect(anthropicNativeAdapter.buildRequest(args({ channel: { baseUrl } })).url).toBe(url);
  });

  it('sends the channel key, the caller anthropic-version and anthropic-beta, and accepts an event stream when streaming', () => {
    const request = anthropicNativeAdapter.buildRequest(
      args({ headers: { 'anthropic-version': '2024-01-01', 'anthropic-beta': 'interleaved-thinking-2025-05-14,context-1m-2025-08-07' } }),
    );
    expect(request.headers).toEqual({
      'x-api-key': 'sk-ant-api03-channel-key',
      'anthropic-version': '2024-01-01',
      'anthropic-beta': 'interleaved-thinking-2025-05-14,context-1m-2025-08-07',
      'content-type': 'application/json',
      accept: 'text/event-stream',
    });
  });

  it('defaults anthropic-version to 2023-06-01, sends no anthropic-beta unless sent, and accepts JSON when not streaming', () => {
    const sent: Array<Record<string, string>> = [{}, { 'anthropic-beta': '' }];
    for (const headers of sent) {
      const request = anthropicNativeAdapter.buildRequest(args({ headers, stream: false }));
      expect(request.headers).toEqual({
        'x-api-key': 'sk-ant-api03-channel-key',
        'anthropic-version': '2023-06-01',
        'content-type': 'application/json',
        accept: 'application/json',
      });
    }
  });

  it('streams through an AnthropicPassthroughStream and maps errors as the anthropic adapter does', () => {
    const options = { publicModel: 'm', callerWantsUsage: false, secrets: [] };
    expect(anthropicNativeAdapter.createStreamTransformer(options)).toBeInstanceOf(AnthropicPassthroughStream);
    const text = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(anthropicNativeAdapter.mapErrorResponse(529, text, [])).toEqual(mapAnthropicErrorResponse(529, text, []));
  });
});

describe('buildAnthropicCountTokensRequest', () => {
  const { max_tokens: _maxTokens, stream: _stream, ...prompt } = body;
  const promptBytes = Buffer.from(JSON.stringify(prompt));

  it('posts to {base}/messages/count_tokens with the caller bytes, JSON accepted', () => {
    const request = buildAnthropicCountTokensRequest(
      args({ channel: { baseUrl: 'https://api.anthropic.com/v1//' }, body: prompt, rawBody: promptBytes, headers: {}, stream: false }),
    );
    expect(request.url).toBe('https://api.anthropic.com/v1/messages/count_tokens');
    expect(request.body).toBe(promptBytes);
    expect(request.headers).toEqual({
      'x-api-key': 'sk-ant-api03-channel-key',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      accept: 'application/json',
    });
  });

  it('maps the model like a message, and forwards anthropic-beta', () => {
    const request = buildAnthropicCountTokensRequest(
      args({ body: prompt, rawBody: promptBytes, upstreamModel: 'claude-x', headers: { 'anthropic-beta': 'token-counting-2024-11-01' }, stream: false }),
    );
    expect(JSON.parse(request.body.toString())).toEqual({ ...prompt, model: 'claude-x' });
    expect(request.headers['anthropic-beta']).toBe('token-counting-2024-11-01');
  });
});

describe('anthropicNativeAdapter.convertResponse', () => {
  const recorded = readFixture('anthropic/message-text.json');
  const recordedModel = 'claude-sonnet-4-5-20250929';

  it('keeps the upstream text exactly when the model is already the public name', () => {
    const converted = anthropicNativeAdapter.convertResponse(recorded, recordedModel);
    if (!converted.ok) throw converted.error;
    expect(converted.text).toBe(recorded);
    expect(converted.body).toEqual(JSON.parse(recorded));
    expect(converted.usage).toEqual({ promptTokens: 12, completionTokens: 29 });
    expect(converted.deliveredChars).toBe(recorded.length);
  });

  it('rewrites the model and re-serialises, every other field and block kept', () => {
    const converted = anthropicNativeAdapter.convertResponse(recorded, 'my-model');
    if (!converted.ok) throw converted.error;
    const expected = { ...(JSON.parse(recorded) as Record<string, unknown>), model: 'my-model' };
    expect(converted.body).toEqual(expected);
    expect(converted.text).toBe(JSON.stringify(converted.body));
    expect(JSON.parse(converted.text!)).toEqual(expected);
    expect(converted.usage).toEqual({ promptTokens: 12, completionTokens: 29 });
  });

  it('counts cache writes and reads into the prompt', () => {
    const text = JSON.stringify({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, cache_creation_input_tokens: 300, cache_read_input_tokens: 4000, output_tokens: 5 },
    });
    const converted = anthropicNativeAdapter.convertResponse(text, 'm');
    expect(converted.ok && converted.usage).toEqual({ promptTokens: 4310, completionTokens: 5, cacheReadTokens: 4000, cacheWriteTokens: 300 });
  });

  it('answers without usage when the upstream gave none readable', () => {
    const converted = anthropicNativeAdapter.convertResponse('{"type":"message","model":"m","usage":{"input_tokens":"x"}}', 'm');
    expect(converted).toMatchObject({ ok: true, usage: undefined });
  });

  it.each(['not json', '[{"type":"message"}]', 'null', '"message"', '{"type":"message"'])('refuses a malformed answer %p', (text) => {
    const converted = anthropicNativeAdapter.convertResponse(text, 'm');
    expect(converted).toEqual({ ok: false, error: expect.objectContaining({ status: 502, type: 'upstream_error', code: 'bad_response' }) });
  });
});
