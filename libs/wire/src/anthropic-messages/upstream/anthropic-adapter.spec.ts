import { ChatCompletionRequestSchema } from '@chat-relay/contract';
import { anthropicAdapter } from '../index';
import { readFixture, readStreamFixture } from '../testing/anthropic-fixtures';

const channel = { baseUrl: 'https://api.anthropic.com/v1/' };

describe('anthropicAdapter', () => {
  it('posts to {base_url}/messages with x-api-key and anthropic-version', () => {
    const request = ChatCompletionRequestSchema.parse({ model: 'claude', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    const upstream = anthropicAdapter.buildRequest({ channel, key: 'sk-ant-key-1', request, upstreamModel: 'claude-sonnet-4-5' });
    expect(upstream.url).toBe('https://api.anthropic.com/v1/messages');
    expect(upstream.headers).toEqual({
      'x-api-key': 'sk-ant-key-1',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    });
    expect(JSON.parse(upstream.body.toString())).toEqual({
      model: 'claude-sonnet-4-5',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      max_tokens: 64000,
      stream: true,
    });
  });

  it('throws a 400 naming a parameter Anthropic cannot express', () => {
    const request = ChatCompletionRequestSchema.parse({ model: 'claude', messages: [{ role: 'user', content: 'Hi' }], n: 3 });
    expect(() => anthropicAdapter.buildRequest({ channel, key: 'k', request, upstreamModel: 'claude-haiku-4-5' })).toThrow(
      expect.objectContaining({ status: 400, param: 'n' }),
    );
  });

  it('converts answers, streams and errors with the caller model name and the current time', () => {
    const before = Math.floor(Date.now() / 1000);
    const converted = anthropicAdapter.convertResponse(readFixture('anthropic/message-text.json'), 'public');
    expect(converted.ok && converted.body).toMatchObject({ model: 'public', object: 'chat.completion' });
    expect(converted.ok && (converted.body['created'] as number)).toBeGreaterThanOrEqual(before);

    const transformer = anthropicAdapter.createStreamTransformer({ publicModel: 'public', callerWantsUsage: false, secrets: [] });
    const steps = readStreamFixture('anthropic/message-text.stream.jsonl').flatMap((event) => transformer.transform(event));
    expect(steps.every((step) => step.kind === 'chunk' && JSON.parse(step.json).model === 'public')).toBe(true);
    expect(transformer.complete).toBe(true);

    expect(anthropicAdapter.mapErrorResponse(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', []))
      .toMatchObject({ retryable: true, channelFault: true });
  });
});
