import { AnthropicPassthroughStream } from './anthropic-passthrough-stream';

const options = { publicModel: 'claude-sonnet-4-5', callerWantsUsage: false, secrets: ['sk-channel-key'] };

const start = {
  event: 'message_start',
  data: JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], usage: { input_tokens: 5, output_tokens: 1 } } }),
};
const delta = { event: 'content_block_delta', data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }) };

/**
 * Found by the fuzz suite (`[sim:fault=malformed]` on an Anthropic channel): the passthrough
 * forwarded a content_block_delta whose data was not JSON (`data: {not json`) to the caller as
 * it came, before ending the stream; Anthropic's SDKs fail on such an event with a parse error
 * instead of reading the stream's error event. Such an event now ends the stream as a failure.
 */
describe('AnthropicPassthroughStream: events it forwards unread', () => {
  it.each(['content_block_delta', 'content_block_start', 'content_block_stop', 'ping'])('%s whose data is not JSON ends the stream with an error, and is not forwarded', (name) => {
    const stream = new AnthropicPassthroughStream(options);
    expect(stream.transform(start)).toHaveLength(1);
    const steps = stream.transform({ event: name, data: '{not json' });
    expect(steps).toEqual([{ kind: 'error', error: expect.objectContaining({ code: 'bad_response', message: 'The upstream provider sent a malformed stream event.' }) }]);
    // Ended: nothing after the failure goes out, and the answer is not complete.
    expect(stream.transform(delta)).toEqual([]);
    expect(stream.complete).toBe(false);
  });

  it('well-formed deltas still pass as they came, counted for usage', () => {
    const stream = new AnthropicPassthroughStream(options);
    stream.transform(start);
    expect(stream.transform(delta)).toEqual([{ kind: 'chunk', event: 'content_block_delta', json: delta.data }]);
    expect(stream.deliveredText).toBe('Hi');
    expect(stream.deliveredChars).toBe(delta.data.length);
  });
});
