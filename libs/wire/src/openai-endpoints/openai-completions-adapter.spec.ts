import { expectOpenAiValid } from '../gemini/testing/expect-openai-valid';
import { openAiCompletionsAdapter } from './openai-completions-adapter';
import { jsonAnswer, readFixture } from './testing/media-fixtures';

const channel = { baseUrl: 'https://api.example.com/v1/' };

function build(raw: string, upstreamModel: string) {
  const request = JSON.parse(raw) as Record<string, unknown>;
  return openAiCompletionsAdapter.buildRequest({ channel, key: 'sk-channel', request, upstreamModel, rawBody: Buffer.from(raw) });
}

const bodyText = (body: unknown): string => (Buffer.isBuffer(body) ? body.toString('utf8') : String(body));

describe('openAiCompletionsAdapter.buildRequest', () => {
  it('sends the caller’s bytes as they are to {base_url}/completions when nothing changes', () => {
    const raw = '{"model":"gpt-3.5-turbo-instruct",  "prompt":"Say hi", "x_vendor":{"a":1}}';
    const built = build(raw, 'gpt-3.5-turbo-instruct');
    expect(built.url).toBe('https://api.example.com/v1/completions');
    expect(built.headers).toEqual({ authorization: 'Bearer sk-channel', 'content-type': 'application/json', accept: 'application/json' });
    expect(bodyText(built.body)).toBe(raw);
  });

  it('swaps only the model when the channel maps it', () => {
    const raw = '{"prompt":"Say hi","model":"my-instruct","max_tokens":5}';
    expect(bodyText(build(raw, 'gpt-3.5-turbo-instruct').body)).toBe('{"prompt":"Say hi","model":"gpt-3.5-turbo-instruct","max_tokens":5}');
  });

  it('asks a stream for usage, appended to the bytes when the caller sent no stream_options', () => {
    const built = build('{"model":"my-instruct","prompt":"Hi","stream":true}\n', 'gpt-3.5-turbo-instruct');
    expect(built.headers['accept']).toBe('text/event-stream');
    expect(bodyText(built.body)).toBe('{"model":"gpt-3.5-turbo-instruct","prompt":"Hi","stream":true,"stream_options":{"include_usage":true}}\n');
  });

  it('adds include_usage to stream_options the caller sent without it, and keeps a caller’s own request for usage', () => {
    const without = build('{"model":"m","prompt":"Hi","stream":true,"stream_options":{"x":1}}', 'm');
    expect(JSON.parse(bodyText(without.body))).toEqual({ model: 'm', prompt: 'Hi', stream: true, stream_options: { x: 1, include_usage: true } });
    const raw = '{"model":"m","prompt":"Hi","stream":true,"stream_options":{"include_usage":true}}';
    expect(bodyText(build(raw, 'm').body)).toBe(raw);
  });

  it('serialises the request when there are no bytes to forward', () => {
    const built = openAiCompletionsAdapter.buildRequest({ channel, key: 'k', request: { model: 'a', prompt: 'Hi', stream: true }, upstreamModel: 'b' });
    expect(JSON.parse(bodyText(built.body))).toEqual({ model: 'b', prompt: 'Hi', stream: true, stream_options: { include_usage: true } });
  });
});

describe('openAiCompletionsAdapter.convertResponse', () => {
  const recorded = readFixture('openai/completion-text.json');
  const context = { request: { model: 'my-instruct', prompt: 'Invent a holiday' }, publicModel: 'my-instruct', contentType: 'application/json' };

  it('passes the recorded answer through with the caller’s model, and its usage', () => {
    const answer = jsonAnswer(openAiCompletionsAdapter.convertResponse(recorded, context));
    expect(answer.text).toBe(recorded.replace('"gpt-3.5-turbo-instruct:20230824-v2"', '"my-instruct"'));
    expect(answer.body['model']).toBe('my-instruct');
    expectOpenAiValid('CreateCompletionResponse', answer.body);
    expect(answer.usage).toEqual({ promptTokens: 14, completionTokens: 16, units: 0 });
  });

  it('leaves the prompt for the relay to count when the server reports no usage', () => {
    const body = JSON.stringify({ id: 'c', object: 'text_completion', created: 1, model: 'x', choices: [{ text: 'Hi', index: 0, logprobs: null, finish_reason: 'stop' }] });
    const answer = jsonAnswer(openAiCompletionsAdapter.convertResponse(body, { ...context, request: { model: 'x', prompt: ['one'] } }));
    expect(answer.usage).toEqual({ promptTokens: 0, completionTokens: 0, units: 0, estimated: true, uncountedText: 'one' });
  });

  it.each([
    ['not JSON', 'Bad gateway'],
    ['no choices', '{"id":"c","object":"text_completion"}'],
    ['malformed usage', '{"choices":[],"usage":{"prompt_tokens":"many"}}'],
  ])('fails a 2xx body with %s so the relay may retry', (_name, body) => {
    const answer = openAiCompletionsAdapter.convertResponse(body, context);
    expect(answer).toMatchObject({ ok: false, error: { status: 502, type: 'upstream_error', code: 'bad_response' } });
  });

  it('maps errors as the chat route does, the key redacted', () => {
    const failure = openAiCompletionsAdapter.mapErrorResponse(429, '{"error":{"message":"slow down sk-channel","code":"rate_limit_exceeded"}}', ['sk-channel']);
    expect(failure).toMatchObject({ retryable: true, channelFault: true, error: { status: 502, code: 'rate_limit_exceeded' } });
    expect(failure.error.message).not.toContain('sk-channel');
  });
});
