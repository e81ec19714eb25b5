import { createOpenAiSpecValidator } from '@chat-relay/contract/testing';
import type { SseEvent } from '../../hub/upstream-adapter';
import { cassetteResponseText, readCassette, readStreamFixture, sseEventsOf } from '../testing/anthropic-fixtures';
import { deltasOf, reassembleToolCalls, runAnthropicStream, type StreamRun } from '../testing/run-anthropic-stream';

const openAiSpec = createOpenAiSpecValidator();

/** Every chunk valid by the official OpenAI schema and stamped with the stream's id and the caller's model. */
function expectValidChunks(run: StreamRun, id: string): void {
  for (const chunk of run.chunks) {
    expect(openAiSpec.errorsFor('CreateChatCompletionStreamResponse', chunk)).toEqual([]);
    expect(chunk).toMatchObject({ id, object: 'chat.completion.chunk', created: 1700000000, model: 'my-model' });
  }
  const finishes = run.chunks.flatMap((chunk) => chunk.choices.filter((choice) => choice.finish_reason !== null));
  expect(finishes).toHaveLength(1);
}

const role = [{ role: 'assistant', content: '' }, null];
const text = (content: string) => [{ content }, null];
const openCall = (index: number, id: string, name: string) => [
  { tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] },
  null,
];
const args = (index: number, fragment: string) => [{ tool_calls: [{ index, function: { arguments: fragment } }] }, null];
const finish = (reason: string) => [{}, reason];

describe('AnthropicStreamTransformer on recorded streams', () => {
  it('streams text (message-text.stream.jsonl) and ends with one usage chunk when asked', () => {
    const run = runAnthropicStream(readStreamFixture('anthropic/message-text.stream.jsonl'), true);
    expectValidChunks(run, 'msg_01QC4g3HwBThD4BaNtBckFDJ');
    expect(deltasOf(run.chunks)).toEqual([
      role,
      text('Hello'),
      text('! I'),
      text("'m doing well, thank you for asking"),
      text('. How are you doing today?'),
      text(' Is'),
      text(' there anything I can help you with?'),
      finish('stop'),
    ]);
    expect(run.chunks.at(-1)).toEqual({
      id: 'msg_01QC4g3HwBThD4BaNtBckFDJ',
      object: 'chat.completion.chunk',
      created: 1700000000,
      model: 'my-model',
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 30, total_tokens: 42, prompt_tokens_details: { cached_tokens: 0 } },
    });
    expect(run.transformer).toMatchObject({ complete: true, usage: { promptTokens: 12, completionTokens: 30 } });
    expect(run.transformer.deliveredChars).toBe(
      "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?".length,
    );
  });

  it('streams text then a no-argument tool (message-tool-no-args.stream.jsonl)', () => {
    const run = runAnthropicStream(readStreamFixture('anthropic/message-tool-no-args.stream.jsonl'));
    expectValidChunks(run, 'msg_01GE2RKp1VYsPzdFs3sS9z5S');
    expect(deltasOf(run.chunks)).toEqual([
      role,
      text("I'll update the issue list for"),
      text(' you.'),
      openCall(0, 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', 'updateIssueList'),
      args(0, '{}'),
      finish('tool_calls'),
    ]);
    expect(run.transformer.usage).toEqual({ promptTokens: 565, completionTokens: 48 });
  });

  it('streams text then a tool call with input_json_delta fragments (stream-text-then-tool-use.sse)', () => {
    const run = runAnthropicStream(readStreamFixture('anthropic/stream-text-then-tool-use.sse'));
    expectValidChunks(run, 'msg_019Q1hrJbZG26Fb9BQhrkHEr');
    expect(deltasOf(run.chunks)).toEqual([
      role,
      text('I'),
      text("'ll check the current weather in Paris for you."),
      openCall(0, 'toolu_01NRLabsLyVHZPKxbKvkfSMn', 'get_weather'),
      args(0, '{"locati'),
      args(0, 'on": "P'),
      args(0, 'ar'),
      args(0, 'is"}'),
      finish('tool_calls'),
    ]);
    expect(JSON.parse(reassembleToolCalls(run.chunks)[0]!.arguments)).toEqual({ location: 'Paris' });
    expect(run.transformer.usage).toEqual({ promptTokens: 377, completionTokens: 65 });
  });

  it('streams both turns of the llm-anthropic round trip (gzip cassette)', () => {
    const [first, second] = readCassette('anthropic/cassette-stream-parallel-tool-use-roundtrip.yaml').map((interaction) =>
      runAnthropicStream(sseEventsOf(cassetteResponseText(interaction)), true),
    );
    expectValidChunks(first!, 'msg_01V2noLbAb2NgKnjaNw6Cn3w');
    expect(deltasOf(first!.chunks)).toEqual([
      role,
      openCall(0, 'toolu_01LtHJmixrs9NcWQkK8hu8hj', 'pelican_name_generator'),
      args(0, '{}'),
      openCall(1, 'toolu_01N8a4jWyf116qKTMqKKmjyt', 'pelican_name_generator'),
      args(1, '{}'),
      finish('tool_calls'),
    ]);
    expect(first!.chunks.at(-1)?.usage).toEqual({
      prompt_tokens: 542,
      completion_tokens: 62,
      total_tokens: 604,
      prompt_tokens_details: { cached_tokens: 0 },
    });
    expectValidChunks(second!, 'msg_01XMATm4UFnjP841TckVuNF4');
    const answer = second!.chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(answer).toMatch(/^Here are two great names for your pet pelican:\n\n1\. \*\*Charles\*\*/);
    expect(answer).toMatch(/feathered friend! 🦅$/);
    expect(deltasOf(second!.chunks).at(-1)).toEqual(finish('stop'));
    expect(second!.transformer.usage).toEqual({ promptTokens: 678, completionTokens: 82 });
  });

  it('streams the answer text as content, apart from the thinking (cassette-stream-thinking.yaml)', () => {
    const [interaction] = readCassette('anthropic/cassette-stream-thinking.yaml');
    const run = runAnthropicStream(sseEventsOf(cassetteResponseText(interaction!)));
    expectValidChunks(run, 'msg_01ALwQ87pTS7hH1PjSdC9wJD');
    const answer = run.chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(answer).toMatch(/^Here are the basic steps for safely crossing the street:/);
    expect(answer).not.toContain('straightforward question');
    expect(run.transformer.usage).toEqual({ promptTokens: 43, completionTokens: 282 });
  });
});

describe('AnthropicStreamTransformer protocol', () => {
  const events = readStreamFixture('anthropic/message-text.stream.jsonl');

  it('is complete only after message_stop, and reports usage only once message_delta gave the totals', () => {
    const partial = runAnthropicStream(events.slice(0, 3));
    expect(partial.transformer.complete).toBe(false);
    expect(partial.transformer.usage).toBeUndefined();
    const run = runAnthropicStream(events.slice(0, -1));
    expect(run.transformer.complete).toBe(false);
    expect(run.transformer.usage).toEqual({ promptTokens: 12, completionTokens: 30 });
  });

  /** A recorded stream whose message_start reports the cache counts given. */
  const withCacheAtStart = (recorded: SseEvent[], cache: Record<string, number>): SseEvent[] =>
    recorded.map((event) => {
      const json = JSON.parse(event.data) as { type: string; message?: { usage: Record<string, unknown> } };
      if (json.type !== 'message_start') return event;
      return { ...event, data: JSON.stringify({ ...json, message: { ...json.message, usage: { ...json.message!.usage, ...cache } } }) };
    });

  it('keeps the cache counts of message_start when message_delta gives only output_tokens, and reports them', () => {
    // The recorded message_delta carries {"output_tokens":65} alone: the cache counts are message_start's.
    const recorded = readStreamFixture('anthropic/stream-text-then-tool-use.sse');
    const run = runAnthropicStream(withCacheAtStart(recorded, { cache_creation_input_tokens: 1000, cache_read_input_tokens: 200 }), true);
    expect(run.transformer.usage).toEqual({ promptTokens: 1577, completionTokens: 65, cacheReadTokens: 200, cacheWriteTokens: 1000 });
    expect(run.chunks.at(-1)?.usage).toEqual({
      prompt_tokens: 1577,
      completion_tokens: 65,
      total_tokens: 1642,
      prompt_tokens_details: { cached_tokens: 200, cache_write_tokens: 1000 },
    });
  });

  it('takes the cache counts message_delta repeats, as newer API versions send them', () => {
    const deltaIndex = events.findIndex((event) => event.data.includes('"message_delta"'));
    const delta = JSON.parse(events[deltaIndex]!.data) as { usage: Record<string, number> };
    const repeated = { ...events[deltaIndex]!, data: JSON.stringify({ ...delta, usage: { ...delta.usage, cache_creation_input_tokens: 7, cache_read_input_tokens: 5 } }) };
    const run = runAnthropicStream([...events.slice(0, deltaIndex), repeated, ...events.slice(deltaIndex + 1)]);
    expect(run.transformer.usage).toEqual({ promptTokens: 24, completionTokens: 30, cacheReadTokens: 5, cacheWriteTokens: 7 });
  });

  it('turns an upstream error event into one error step, then nothing', () => {
    const overloaded = {
      event: 'error',
      data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    };
    const run = runAnthropicStream([...events.slice(0, 5), overloaded, ...events.slice(5)], true);
    expect(run.steps.at(-1)).toEqual({ error: run.errors[0] });
    expect(run.errors).toHaveLength(1);
    expect(run.errors[0]!.status).toBe(502);
    expect(openAiSpec.errorsFor('ErrorResponse', run.errors[0]!.toBody())).toEqual([]);
    expect(run.errors[0]!.toBody().error).toEqual({
      type: 'upstream_error',
      code: 'overloaded_error',
      param: null,
      message: 'The upstream provider failed with status 529: Overloaded',
    });
    expect(run.chunks.every((chunk) => chunk.choices.every((choice) => choice.finish_reason === null))).toBe(true);
    expect(run.transformer.complete).toBe(false);
  });

  it('keeps a request error from the stream as a 400 with its message', () => {
    const error = { data: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } }) };
    const run = runAnthropicStream([events[0]!, error]);
    expect(run.errors[0]!.toBody().error).toEqual({
      type: 'invalid_request_error',
      code: null,
      param: null,
      message: 'prompt is too long',
    });
    expect(run.errors[0]!.status).toBe(400);
  });

  it('skips event types it does not know and pings', () => {
    const extra = [{ data: '{"type":"ping"}' }, { data: '{"type":"some_future_event","x":1}' }];
    expect(deltasOf(runAnthropicStream([events[0]!, ...extra, ...events.slice(1)]).chunks)).toEqual(
      deltasOf(runAnthropicStream(events).chunks),
    );
  });

  it.each([
    ['not JSON', '{"type":'],
    ['a malformed known event', '{"type":"content_block_delta","index":0}'],
    ['a delta for a block never started', '{"type":"content_block_delta","index":7,"delta":{"type":"text_delta","text":"x"}}'],
  ])('reports %s as one bad_response error', (_name, data) => {
    const run = runAnthropicStream([events[0]!, events[1]!, { data }, ...events.slice(2)]);
    expect(run.errors.map((error) => error.code)).toEqual(['bad_response']);
    expect(run.steps.at(-1)).toEqual({ error: run.errors[0] });
  });

  it('streams the JSON-response tool input as content and finishes with stop', () => {
    const jsonAnswer = [
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'c',
          content: [],
          stop_reason: null,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'json_response__answer', input: {} },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city": ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } },
      { type: 'message_stop' },
    ].map((event) => ({ data: JSON.stringify(event) }));
    const run = runAnthropicStream(jsonAnswer);
    expectValidChunks(run, 'msg_1');
    expect(deltasOf(run.chunks)).toEqual([role, text('{"city": '), text('"Paris"}'), finish('stop')]);
  });
});
