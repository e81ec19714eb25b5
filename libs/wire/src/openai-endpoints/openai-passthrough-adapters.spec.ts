import { EmbeddingListSchema, ModerationRequestSchema } from '@chat-relay/contract';
import { expectOpenAiValid } from '../gemini/testing/expect-openai-valid';
import { moderationTextOf, openAiEmbeddingsAdapter, openAiModerationsAdapter, openAiSpeechAdapter } from './openai-passthrough-adapters';
import { jsonAnswer, readCassetteExchange, readFixture, readSession } from './testing/media-fixtures';

const channel = { baseUrl: 'https://api.example.com/v1' };
const contextOf = (request: Record<string, unknown>, publicModel: string) => ({ request, publicModel, contentType: 'application/json' });

describe('openAiEmbeddingsAdapter', () => {
  const { request, response } = readCassetteExchange('embeddings-base64.yaml');

  it('forwards the caller’s bytes to {base_url}/embeddings, the model swapped', () => {
    const raw = JSON.stringify({ ...request.parsed_body, model: 'my-embedder' });
    const built = openAiEmbeddingsAdapter.buildRequest({ channel, key: 'sk-1', request: JSON.parse(raw), upstreamModel: 'text-embedding-3-small', rawBody: Buffer.from(raw) });
    expect(built.url).toBe('https://api.example.com/v1/embeddings');
    expect(built.headers).toEqual({ authorization: 'Bearer sk-1', 'content-type': 'application/json' });
    expect(built.body.toString()).toBe(JSON.stringify(request.parsed_body));
  });

  it('passes the recorded base64 answer through, only the model rewritten, with its prompt tokens', () => {
    const text = JSON.stringify(response.parsed_body);
    const answer = jsonAnswer(openAiEmbeddingsAdapter.convertResponse(text, contextOf(request.parsed_body, 'my-embedder')));
    expect(answer.text).toBe(text.replace('"model":"text-embedding-3-small"', '"model":"my-embedder"'));
    expect(EmbeddingListSchema.parse(answer.body).data[0]?.embedding).toBe((response.parsed_body['data'] as Array<{ embedding: string }>)[0]?.embedding);
    expect(answer.usage).toEqual({ promptTokens: 4, completionTokens: 0, units: 0 });
  });

  it('passes a float answer through (openai/embedding.json) and leaves uncounted inputs to the relay', () => {
    const text = readFixture('openai/embedding.json');
    const answer = jsonAnswer(openAiEmbeddingsAdapter.convertResponse(text, contextOf({ input: ['a', 'b'] }, 'text-embedding-3-small')));
    expect(answer.text).toBe(text);
    expectOpenAiValid('CreateEmbeddingResponse', answer.body);
    const noUsage = JSON.stringify({ object: 'list', data: [], model: 'x' });
    expect(jsonAnswer(openAiEmbeddingsAdapter.convertResponse(noUsage, contextOf({ input: ['a', 'b'] }, 'x'))).usage).toEqual({
      promptTokens: 0,
      completionTokens: 0,
      units: 0,
      estimated: true,
      uncountedText: 'a\nb',
    });
  });

  it('fails a 2xx body without data so the relay may retry', () => {
    expect(openAiEmbeddingsAdapter.convertResponse('{"object":"list"}', contextOf({}, 'x'))).toMatchObject({ ok: false, error: { code: 'bad_response' } });
    expect(openAiEmbeddingsAdapter.convertResponse('[]', contextOf({}, 'x'))).toMatchObject({ ok: false, error: { code: 'bad_response' } });
  });
});

describe('openAiModerationsAdapter on the recorded sessions', () => {
  it.each([
    ['session-moderation-text.json', 'I am killing all my houseplants!', true],
    ['session-moderation-text-and-image.json', 'I forgot to water my houseplants!', false],
  ])('%s: passed through with the caller’s model; the text left for the relay to count', (name, text, flagged) => {
    const [entry] = readSession(name);
    if (!entry) throw new Error('empty session');
    const request = ModerationRequestSchema.parse(entry.RequestBody);
    const built = openAiModerationsAdapter.buildRequest({ channel, key: 'sk-1', request, upstreamModel: 'omni-moderation-latest' });
    expect(built.url).toBe('https://api.example.com/v1/moderations');
    expect(JSON.parse(built.body.toString())).toEqual(entry.RequestBody);

    const answer = jsonAnswer(openAiModerationsAdapter.convertResponse(JSON.stringify(entry.ResponseBody), contextOf(request, 'my-moderator')));
    expectOpenAiValid('CreateModerationResponse', answer.body);
    expect(answer.body).toMatchObject({ model: 'my-moderator', results: [{ flagged }] });
    expect(answer.usage).toEqual({ promptTokens: 0, completionTokens: 0, units: 0, estimated: true, uncountedText: text });
  });

  it('adds the model the server resolved when the caller named none', () => {
    const raw = '{"input":"hello"}';
    const built = openAiModerationsAdapter.buildRequest({ channel, key: 'k', request: { input: 'hello' }, upstreamModel: 'omni-moderation-latest', rawBody: Buffer.from(raw) });
    expect(JSON.parse(built.body.toString())).toEqual({ input: 'hello', model: 'omni-moderation-latest' });
  });

  it('reads the text of strings, lists and text parts alike', () => {
    expect(moderationTextOf(['one', 'two'])).toBe('one\ntwo');
    expect(moderationTextOf([{ type: 'image_url', image_url: { url: 'https://x' } }])).toBe('');
  });

  it('fails an answer that is no moderation', () => {
    expect(openAiModerationsAdapter.convertResponse('{"id":"modr-1","results":[{}]}', contextOf({ input: 'x' }, 'm'))).toMatchObject({ ok: false });
  });
});

describe('openAiSpeechAdapter', () => {
  it('forwards to {base_url}/audio/speech and counts the input in code points', () => {
    const request = { model: 'tts-1', input: 'Héllo 👋🏽', voice: 'alloy' };
    const built = openAiSpeechAdapter.buildRequest({ channel, key: 'sk-1', request, upstreamModel: 'tts-1' });
    expect(built.url).toBe('https://api.example.com/v1/audio/speech');
    expect(openAiSpeechAdapter.binary?.usage(request)).toEqual({ promptTokens: 0, completionTokens: 0, units: 8 });
  });

  it('maps errors with the OpenAI mapper, the key redacted', () => {
    const failure = openAiSpeechAdapter.mapErrorResponse(400, '{"error":{"message":"bad voice for sk-secret-1","param":"voice"}}', ['sk-secret-1']);
    expect(failure).toMatchObject({ retryable: false, error: { status: 400, param: 'voice' } });
    expect(failure.error.message).not.toContain('sk-secret-1');
  });
});
