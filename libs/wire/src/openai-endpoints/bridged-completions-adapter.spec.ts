import { CompletionSchema } from '@chat-relay/contract';
import { readStreamFixture } from '../anthropic-messages/testing/anthropic-fixtures';
import { expectOpenAiValid } from '../gemini/testing/expect-openai-valid';
import { anthropicAdapter } from '../anthropic-messages/upstream/anthropic-adapter';
import { geminiAdapter } from '../gemini/upstream/gemini-adapter';
import type { EndpointAdapter } from '../hub/endpoint-adapter';
import { bridgedCompletionsAdapter } from './bridged-completions-adapter';
import type { JsonRequest } from './endpoint-common';
import { jsonAnswer, readFixture, sentJson } from './testing/media-fixtures';

const anthropic = bridgedCompletionsAdapter(anthropicAdapter, 'Anthropic');
const gemini = bridgedCompletionsAdapter(geminiAdapter, 'Gemini');

const build = (adapter: EndpointAdapter<JsonRequest>, request: JsonRequest, upstreamModel = 'upstream-model') =>
  adapter.buildRequest({ channel: { baseUrl: 'https://upstream.example/v1' }, key: 'channel-key', request, upstreamModel });

describe('/completions bridged to Anthropic and Gemini: the request', () => {
  it('sends the prompt as one user turn to Anthropic, max_tokens 16 by default, sampling carried', () => {
    const built = build(anthropic, { model: 'my-claude', prompt: 'Once upon a time', temperature: 0.5, top_p: 0.9, stop: ['\n'], user: 'u-1' }, 'claude-sonnet-4-5');
    expect(built.url).toBe('https://upstream.example/v1/messages');
    expect(built.headers['x-api-key']).toBe('channel-key');
    expect(sentJson(built)).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 16,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Once upon a time' }] }],
      stream: false,
      temperature: 0.5,
      top_p: 0.9,
      stop_sequences: ['\n'],
      metadata: { user_id: 'u-1' },
    });
  });

  it('sends the prompt to Gemini generateContent with its options, a one-string list taken as the prompt', () => {
    const built = build(
      gemini,
      { model: 'my-gemini', prompt: ['Once upon a time'], max_tokens: 40, n: 2, seed: 7, presence_penalty: 0.1, frequency_penalty: 0.2, stop: 'END' },
      'gemini-2.5-flash',
    );
    expect(built.url).toBe('https://upstream.example/v1/models/gemini-2.5-flash:generateContent');
    expect(sentJson(built)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Once upon a time' }] }],
      generationConfig: { maxOutputTokens: 40, candidateCount: 2, seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.2, stopSequences: ['END'] },
    });
  });

  it('streams from Gemini through streamGenerateContent', () => {
    const built = build(gemini, { model: 'g', prompt: 'Hi', stream: true, stream_options: { include_usage: true } }, 'gemini-2.5-flash');
    expect(built.url).toBe('https://upstream.example/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
  });

  it.each([
    ['suffix', 'suffix', { suffix: ' the end.' }],
    ['echo', 'echo', { echo: true }],
    ['logprobs', 'logprobs', { logprobs: 2 }],
    ['best_of above 1', 'best_of', { best_of: 3 }],
    ['logit_bias', 'logit_bias', { logit_bias: { '50256': -100 } }],
    ['a token-id prompt', 'prompt', { prompt: [1, 2, 3] }],
    ['token-id prompts', 'prompt', { prompt: [[1, 2], [3]] }],
    ['several prompts', 'prompt', { prompt: ['one', 'two'] }],
    ['max_tokens 0', 'max_tokens', { max_tokens: 0 }],
  ])('refuses %s with a 400 naming %s', (_name, param, fields) => {
    for (const adapter of [anthropic, gemini]) {
      expect(() => build(adapter, { model: 'm', prompt: 'Hi', ...fields })).toThrow(expect.objectContaining({ status: 400, param }));
    }
  });

  it('accepts the values that ask for nothing: echo false, best_of 1, an empty logit_bias, an empty suffix', () => {
    const built = build(gemini, { model: 'm', prompt: 'Hi', echo: false, best_of: 1, logit_bias: {}, suffix: '' });
    expect(sentJson(built)['generationConfig']).toEqual({ maxOutputTokens: 16 });
  });

  it('leaves the channel’s own refusals to its chat converter (n on Anthropic, unknown fields on Gemini)', () => {
    expect(() => build(anthropic, { model: 'm', prompt: 'Hi', n: 2 })).toThrow(expect.objectContaining({ status: 400, param: 'n' }));
    expect(() => build(gemini, { model: 'm', prompt: 'Hi', guided_regex: 'a+' })).toThrow(expect.objectContaining({ status: 400, param: 'guided_regex' }));
  });
});

describe('/completions bridged: the answer', () => {
  const context = { request: { model: 'my-model', prompt: 'Hello' }, publicModel: 'my-model', contentType: 'application/json' };

  it('turns the recorded Anthropic message into a text_completion', () => {
    const answer = jsonAnswer(anthropic.convertResponse(readFixture('anthropic/message-text.json'), context));
    expectOpenAiValid('CreateCompletionResponse', answer.body);
    expect(CompletionSchema.parse(answer.body)).toMatchObject({
      id: 'cmpl-msg_01VdEjxAP5ahtHKrrRdNBteQ',
      object: 'text_completion',
      model: 'my-model',
      choices: [
        { index: 0, logprobs: null, finish_reason: 'stop', text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?" },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 29, total_tokens: 41 },
    });
    expect(answer.usage).toEqual({ promptTokens: 12, completionTokens: 29, units: 0 });
  });

  it('turns the recorded Gemini answer into a text_completion, thinking tokens counted as output', () => {
    const answer = jsonAnswer(gemini.convertResponse(readFixture('gemini/generate-content-text.json'), context));
    expectOpenAiValid('CreateCompletionResponse', answer.body);
    expect(answer.body).toMatchObject({ id: 'cmpl-Un6LacrVMcjUxs0PmJfWoQc', choices: [{ text: expect.stringContaining('strawberry'), finish_reason: 'stop' }] });
    expect(answer.usage).toEqual({ promptTokens: 9, completionTokens: 272, units: 0 });
  });

  it('leaves the prompt for the relay to count when Gemini reports no usage', () => {
    const body = JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'Hi there' }] }, finishReason: 'MAX_TOKENS' }], responseId: 'r1' });
    const answer = jsonAnswer(gemini.convertResponse(body, context));
    expect(answer.body).toMatchObject({ id: 'cmpl-r1', choices: [{ text: 'Hi there', finish_reason: 'length' }] });
    expect(answer.usage).toEqual({ promptTokens: 0, completionTokens: 0, units: 0, estimated: true, uncountedText: 'Hello' });
  });

  it('passes the channel’s own failures on, and maps its errors', () => {
    expect(gemini.convertResponse('{"candidates":[]}', context)).toMatchObject({ ok: false, error: { code: 'bad_response' } });
    const failure = anthropic.mapErrorResponse(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', []);
    expect(failure).toMatchObject({ retryable: true, error: { status: 502 } });
  });
});

describe('/completions bridged: the stream', () => {
  function replay(adapter: EndpointAdapter<JsonRequest>, fixture: string, callerWantsUsage: boolean) {
    const transformer = adapter.createStreamTransformer?.({ publicModel: 'my-model', callerWantsUsage, secrets: [] });
    if (!transformer) throw new Error('no stream transformer');
    const steps = readStreamFixture(fixture).flatMap((event) => transformer.transform(event));
    steps.push(...transformer.finish());
    const chunks = steps.map((step) => (step.kind === 'chunk' ? JSON.parse(step.json) : step));
    return { transformer, chunks };
  }

  it.each([
    ['anthropic/message-text.stream.jsonl', anthropic, { prompt_tokens: 12, completion_tokens: 30 }],
    ['gemini/generate-content-text.stream.jsonl', gemini, { prompt_tokens: 9, completion_tokens: 208 }],
  ])('relays %s as text_completion chunks, the usage chunk last when asked', (fixture, adapter, usage) => {
    const { transformer, chunks } = replay(adapter, fixture, true);
    for (const chunk of chunks) {
      expect(CompletionSchema.parse(chunk)).toMatchObject({ object: 'text_completion', model: 'my-model', id: expect.stringMatching(/^cmpl-/) });
    }
    const text = chunks.flatMap((chunk) => chunk.choices.map((choice: { text: string }) => choice.text)).join('');
    expect(text).toBe(transformer.deliveredText);
    expect(text.length).toBeGreaterThan(10);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage });
    expect(transformer.complete).toBe(true);
  });

  it('sends no usage chunk when the caller did not ask, and still reports usage', () => {
    const { transformer, chunks } = replay(anthropic, 'anthropic/message-text.stream.jsonl', false);
    expect(chunks.every((chunk) => chunk.choices.length > 0 && chunk.usage === undefined)).toBe(true);
    expect(transformer.usage).toEqual(expect.objectContaining({ promptTokens: 12, completionTokens: 30 }));
  });
});
