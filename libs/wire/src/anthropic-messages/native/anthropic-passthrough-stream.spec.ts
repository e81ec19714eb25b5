import { RelayError } from '../../errors/relay-error';
import type { SseEvent, StreamStep } from '../../hub/upstream-adapter';
import { AnthropicPassthroughStream } from './anthropic-passthrough-stream';
import { cassetteResponseText, readCassette, readStreamFixture, sseEventsOf } from '../testing/anthropic-fixtures';

const SECRET = 'sk-ant-api03-passthrough-secret';

const passthrough = (publicModel = 'my-model') =>
  new AnthropicPassthroughStream({ publicModel, callerWantsUsage: false, secrets: [SECRET] });

/** Every event through one transformer, then `finish()`, as the relay's pump does. */
function relay(events: readonly SseEvent[], publicModel = 'my-model') {
  const stream = passthrough(publicModel);
  const steps: StreamStep[] = [...events.flatMap((event) => stream.transform(event)), ...stream.finish()];
  return { stream, steps };
}

/** An event as Anthropic frames it: named after its `type`. */
const named = (data: Record<string, unknown>): SseEvent => ({ event: String(data['type']), data: JSON.stringify(data) });

/** `*.stream.jsonl` lost the `event:` lines; Anthropic names every event after its `type`. */
const withNames = (events: readonly SseEvent[]): SseEvent[] =>
  events.map((event) => ({ event: (JSON.parse(event.data) as { type: string }).type, data: event.data }));

const chunksOf = (steps: readonly StreamStep[]) =>
  steps.map((step) => {
    if (step.kind !== 'chunk') throw new Error(`expected only chunks, got ${step.error.message}`);
    return { event: step.event, data: step.json };
  });

const recordedStreams: Array<[string, () => SseEvent[]]> = [
  ['message-text.stream.jsonl', () => withNames(readStreamFixture('anthropic/message-text.stream.jsonl'))],
  ['message-tool-no-args.stream.jsonl', () => withNames(readStreamFixture('anthropic/message-tool-no-args.stream.jsonl'))],
  ['stream-text-then-tool-use.sse', () => readStreamFixture('anthropic/stream-text-then-tool-use.sse')],
  ['stream-max-tokens-mid-tool-input.sse', () => readStreamFixture('anthropic/stream-max-tokens-mid-tool-input.sse')],
  ...readCassette('anthropic/cassette-stream-parallel-tool-use-roundtrip.yaml').map(
    (interaction, turn): [string, () => SseEvent[]] => [
      `cassette-stream-parallel-tool-use-roundtrip.yaml turn ${turn + 1}`,
      () => sseEventsOf(cassetteResponseText(interaction)),
    ],
  ),
  ['cassette-stream-thinking.yaml', () => sseEventsOf(cassetteResponseText(readCassette('anthropic/cassette-stream-thinking.yaml')[0]!))],
];

describe('AnthropicPassthroughStream on recorded streams', () => {
  it.each(recordedStreams)('%s: every event out as it came, only message_start.message.model rewritten', (_name, read) => {
    const events = read();
    const { stream, steps } = relay(events, 'my-model');
    const out = chunksOf(steps);
    expect(out.map((chunk) => chunk.event)).toEqual(events.map((event) => event.event));
    events.forEach((event, index) => {
      const sent = out[index]!;
      if (event.event !== 'message_start') {
        expect(sent.data).toBe(event.data);
        return;
      }
      const upstream = JSON.parse(event.data) as { message: { model: string } };
      expect(upstream.message.model).not.toBe('my-model');
      expect(JSON.parse(sent.data)).toEqual({ ...upstream, message: { ...upstream.message, model: 'my-model' } });
    });
    expect(events.filter((event) => event.event === 'message_start')).toHaveLength(1);
    expect(stream.complete).toBe(true);
  });

  it.each(recordedStreams)('%s: the same data text, message_start too, when the public name is the upstream one', (_name, read) => {
    const events = read();
    const upstreamModel = (JSON.parse(events[0]!.data) as { message: { model: string } }).message.model;
    const out = chunksOf(relay(events, upstreamModel).steps);
    expect(out).toEqual(events.map((event) => ({ event: event.event, data: event.data })));
  });

  it('reads usage from message_start and the cumulative message_delta (stream-text-then-tool-use.sse)', () => {
    const events = readStreamFixture('anthropic/stream-text-then-tool-use.sse');
    const stream = passthrough();
    stream.transform(events[0]!);
    // message_start's output_tokens is a placeholder: cut here, the completion is counted by the relay.
    expect(stream.usage).toEqual({ promptTokens: 377, completionTokens: 0, completionUnknown: true });
    for (const event of events.slice(1)) stream.transform(event);
    expect(stream.usage).toEqual({ promptTokens: 377, completionTokens: 65 });
  });

  it('reassembles text and tool input from the deltas when asked (stream-text-then-tool-use.sse)', () => {
    const { stream } = relay(readStreamFixture('anthropic/stream-text-then-tool-use.sse'));
    expect(stream.deliveredText).toBe('I\'ll check the current weather in Paris for you.{"location": "Paris"}');
  });

  it('counts thinking_delta text as delivered, and the answer text after it (cassette-stream-thinking.yaml)', () => {
    const { stream } = relay(sseEventsOf(cassetteResponseText(readCassette('anthropic/cassette-stream-thinking.yaml')[0]!)));
    expect(stream.deliveredText).toContain('straightforward question');
    expect(stream.deliveredText).toContain('Here are the basic steps for safely crossing the street:');
    expect(stream.deliveredText.indexOf('straightforward question')).toBeLessThan(stream.deliveredText.indexOf('Here are the basic steps'));
    // The signature_delta carries no delivered text.
    expect(stream.deliveredText).not.toMatch(/"signature"/);
    expect(stream.usage).toEqual({ promptTokens: 43, completionTokens: 282 });
  });
});

describe('AnthropicPassthroughStream protocol', () => {
  const start = (model: string, usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 1 }) =>
    named({
      type: 'message_start',
      message: { id: 'msg_1', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage },
    });
  const textDelta = (text: string) => named({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
  const messageDelta = (usage: Record<string, unknown>) =>
    named({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage });
  const stop = named({ type: 'message_stop' });

  it('rewrites only message.model in message_start, every other field kept in order', () => {
    const event = start('claude-sonnet-4-5', { input_tokens: 3, output_tokens: 1, service_tier: 'standard' });
    const [step] = passthrough('my-model').transform(event);
    expect(step).toEqual({
      kind: 'chunk',
      event: 'message_start',
      json: event.data.replace('"model":"claude-sonnet-4-5"', '"model":"my-model"'),
    });
  });

  it('relays content_block_*, ping and an unknown future event with the same name and the exact data text', () => {
    const odd = [
      { event: 'content_block_start', data: '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}' },
      { event: 'ping', data: '{"type": "ping"}' },
      { event: 'content_block_delta', data: '{"type":"content_block_delta",  "index":0,"delta":{"type":"text_delta","text":"Hi"}}   ' },
      { event: 'content_block_stop', data: '{"type":"content_block_stop","index":0}' },
      { event: 'citations_later', data: '{"type":"citations_later", "payload": {"n": 1}}' },
      { event: 'message_delta', data: '{ "type": "message_delta", "delta": {"stop_reason":"end_turn"}, "usage": {"output_tokens": 2} }' },
      { event: 'message_stop', data: '{"type":"message_stop"}' },
    ];
    const stream = passthrough();
    const out = odd.flatMap((event) => stream.transform(event));
    expect(out).toEqual(odd.map((event) => ({ kind: 'chunk', event: event.event, json: event.data })));
  });

  it('names an unnamed event after its type', () => {
    const stream = passthrough();
    expect(stream.transform({ data: '{"type":"future_event","x":1}' })).toEqual([
      { kind: 'chunk', event: 'future_event', json: '{"type":"future_event","x":1}' },
    ]);
  });

  it('keeps the cache counts: promptTokens = input + cache writes + cache reads', () => {
    const stream = passthrough();
    stream.transform(start('m', { input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 1 }));
    expect(stream.usage).toEqual({ promptTokens: 115, completionTokens: 0, cacheReadTokens: 100, cacheWriteTokens: 5, completionUnknown: true });
    // A delta with only output_tokens keeps the input side and the cache counts of message_start.
    stream.transform(messageDelta({ output_tokens: 20 }));
    expect(stream.usage).toEqual({ promptTokens: 115, completionTokens: 20, cacheReadTokens: 100, cacheWriteTokens: 5 });
    // Later API versions repeat the input side and cache counts: the newest counts win.
    stream.transform(messageDelta({ input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 200, output_tokens: 42 }));
    expect(stream.usage).toEqual({ promptTokens: 212, completionTokens: 42, cacheReadTokens: 200 });
    // A later delta builds on the latest counts, not on message_start's.
    stream.transform(messageDelta({ output_tokens: 50 }));
    expect(stream.usage).toEqual({ promptTokens: 212, completionTokens: 50, cacheReadTokens: 200 });
    stream.transform(stop);
    expect(stream.usage).toEqual({ promptTokens: 212, completionTokens: 50, cacheReadTokens: 200 });
  });

  it('has no usage until one is reported, and keeps what it had when a delta cannot complete it', () => {
    const stream = passthrough();
    expect(stream.usage).toBeUndefined();
    stream.transform(start('m', {}));
    stream.transform(messageDelta({ output_tokens: 5 }));
    expect(stream.usage).toBeUndefined();
    stream.transform(messageDelta({ input_tokens: 7, output_tokens: 6 }));
    expect(stream.usage).toEqual({ promptTokens: 7, completionTokens: 6 });
  });

  it('is complete only after message_stop, and relays nothing after it', () => {
    const stream = passthrough();
    for (const event of [start('m'), textDelta('Hi'), messageDelta({ output_tokens: 2 })]) {
      stream.transform(event);
      expect(stream.complete).toBe(false);
    }
    expect(stream.finish()).toEqual([]);
    expect(stream.complete).toBe(false);
    expect(stream.transform(stop)).toHaveLength(1);
    expect(stream.complete).toBe(true);
    expect(stream.transform(textDelta('late'))).toEqual([]);
    expect(stream.deliveredText).toBe('Hi');
  });

  it('turns an error event into one error step, the channel key redacted, and relays nothing after it', () => {
    const stream = passthrough();
    stream.transform(start('m'));
    stream.transform(textDelta('Hel'));
    const error = named({ type: 'error', error: { type: 'overloaded_error', message: `Overloaded for key ${SECRET}` } });
    const steps = stream.transform(error);
    expect(steps).toHaveLength(1);
    const [step] = steps;
    if (step?.kind !== 'error') throw new Error('expected an error step');
    expect(step.error).toBeInstanceOf(RelayError);
    expect(step.error).toMatchObject({ status: 502, type: 'upstream_error', code: 'overloaded_error' });
    expect(step.error.message).toContain('Overloaded');
    expect(step.error.message).not.toContain(SECRET);
    expect(stream.transform(textDelta('lo'))).toEqual([]);
    expect(stream.transform(stop)).toEqual([]);
    expect(stream.finish()).toEqual([]);
    expect(stream.complete).toBe(false);
  });

  it('an error event without its error object is a bad_response error step', () => {
    const steps = passthrough().transform(named({ type: 'error' }));
    expect(steps).toEqual([{ kind: 'error', error: expect.objectContaining({ code: 'bad_response' }) }]);
  });

  it.each([
    ['message_start', '{"type":"message_start","message":'],
    ['message_delta', '{"type":"message_delta",'],
    ['message_stop', 'not json'],
    ['future_event', '{'],
  ])('a malformed %s event is one bad_response error step, then nothing', (event, data) => {
    const stream = passthrough();
    const steps = stream.transform({ event, data });
    expect(steps).toEqual([{ kind: 'error', error: expect.objectContaining({ status: 502, code: 'bad_response' }) }]);
    expect(stream.transform(stop)).toEqual([]);
    expect(stream.complete).toBe(false);
  });

  it('a message_start without its message is an error step', () => {
    const steps = passthrough().transform(named({ type: 'message_start' }));
    expect(steps).toEqual([{ kind: 'error', error: expect.objectContaining({ code: 'bad_response' }) }]);
  });

  it('reassembles text_delta, input_json_delta and thinking_delta text (a malformed delta ends the stream: see anthropic-passthrough-malformed.spec.ts)', () => {
    const stream = passthrough();
    const deltas: SseEvent[] = [
      named({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me think. ' } }),
      named({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' } }),
      textDelta('Calling '),
      named({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city":' } }),
      named({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }),
    ];
    // Deltas are relayed as they came.
    expect(deltas.flatMap((event) => stream.transform(event))).toEqual(
      deltas.map((event) => ({ kind: 'chunk', event: 'content_block_delta', json: event.data })),
    );
    expect(stream.deliveredText).toBe('Let me think. Calling {"city":"Paris"}');
    expect(stream.deliveredChars).toBe(deltas.reduce((sum, event) => sum + event.data.length, 0));
  });
});
