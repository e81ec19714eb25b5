import type { StreamStep } from '../../hub/upstream-adapter';
import { BRIDGED_THINKING_SIGNATURE } from './bridged-thinking-signature';
import { ChatToMessagesStream, type ChatToMessagesStreamOptions } from './chat-to-messages-stream';
import { eventsOf, expectValidMessagesStream, sdkFinalMessage } from '../testing/messages-stream-checks';

type Delta = Record<string, unknown>;
const chunk = (delta: Delta, finishReason: string | null = null, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: 'chatcmpl-s1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'upstream',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  });
const usageChunk = (usage: Record<string, unknown>) =>
  JSON.stringify({ id: 'chatcmpl-s1', object: 'chat.completion.chunk', created: 1, model: 'upstream', choices: [], usage });
const USAGE = { prompt_tokens: 100, completion_tokens: 12, total_tokens: 112, prompt_tokens_details: { cached_tokens: 40 } };
const toolDelta = (index: number, fields: { id?: string; name?: string; args?: string }) => ({
  tool_calls: [
    {
      index,
      ...(fields.id ? { id: fields.id, type: 'function' } : {}),
      function: { ...(fields.name ? { name: fields.name } : {}), ...(fields.args !== undefined ? { arguments: fields.args } : {}) },
    },
  ],
});

function run(chunks: string[], options: Partial<ChatToMessagesStreamOptions> = {}, finish = true) {
  const stream = new ChatToMessagesStream({ publicModel: 'claude-bridged', ...options });
  const steps: StreamStep[] = chunks.flatMap((json) => stream.transform(json));
  if (finish) steps.push(...stream.finish());
  return { stream, steps, events: eventsOf(steps) };
}

describe('ChatToMessagesStream', () => {
  it('message_start comes once, first, with the id, the caller’s model and the known input tokens', () => {
    const { events } = run([chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hi' }), chunk({ content: '!' }, 'stop'), usageChunk(USAGE)], {
      inputTokens: 95,
    });
    expect(events.filter((event) => event.type === 'message_start')).toEqual([
      {
        type: 'message_start',
        message: {
          id: 'msg_s1',
          type: 'message',
          role: 'assistant',
          content: [],
          model: 'claude-bridged',
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 95, output_tokens: 0 },
        },
      },
    ]);
    expect(expectValidMessagesStream(events)).toMatchObject({ text: 'Hi!', stopReason: 'end_turn' });
  });

  it('no empty text block when thinking is on: reasoning is a signed thinking block, text opens at the first real text', async () => {
    const { events } = run([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: '', reasoning_content: 'Let me ' }),
      chunk({ content: null, reasoning_content: 'think.' }),
      chunk({ content: '' }),
      chunk({ content: 'Answer.' }, 'stop'),
      usageChunk(USAGE),
    ]);
    expect(events.filter((event) => event.type === 'content_block_start').map((event) => event.content_block)).toEqual([
      { type: 'thinking', thinking: '', signature: '' },
      { type: 'text', text: '' },
    ]);
    expect(expectValidMessagesStream(events)).toMatchObject({ thinking: 'Let me think.', text: 'Answer.' });
    const final = await sdkFinalMessage(events);
    expect(final.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: BRIDGED_THINKING_SIGNATURE },
      { type: 'text', text: 'Answer.' },
    ]);
  });

  it('OpenRouter-style `reasoning` is thinking too; an answer of thinking and a tool call has no text block at all', () => {
    const { events } = run([
      chunk({ role: 'assistant', content: '', reasoning: 'Need the tool.' }),
      chunk(toolDelta(0, { id: 'call_1', name: 'lookup', args: '{}' })),
      chunk({}, 'tool_calls'),
      usageChunk(USAGE),
    ]);
    const summary = expectValidMessagesStream(events);
    expect(summary).toMatchObject({ thinking: 'Need the tool.', text: '', stopReason: 'tool_use' });
    expect(events.some((event) => event.type === 'content_block_start' && event.content_block.type === 'text')).toBe(false);
  });

  it('streamed tool arguments never arrive as input: {} — arguments in the same chunk as id and name are the first delta', async () => {
    const { events } = run([chunk(toolDelta(0, { id: 'call_g', name: 'weather', args: '{"city":"Paris"}' }), 'tool_calls'), usageChunk(USAGE)]);
    expect(events.filter((event) => event.type === 'content_block_delta').map((event) => event.delta)).toEqual([
      { type: 'input_json_delta', partial_json: '{"city":"Paris"}' },
    ]);
    const final = await sdkFinalMessage(events);
    expect(final.content).toEqual([{ type: 'tool_use', id: 'call_g', name: 'weather', input: { city: 'Paris' } }]);
    expect(final.stop_reason).toBe('tool_use');
  });

  it('every fragment is an input_json_delta as it came, and the SDK reassembles the input', async () => {
    const fragments = ['{"ci', 'ty":', ' "Par', 'is"}'];
    const { events } = run([
      chunk({ content: 'Looking.' }),
      chunk(toolDelta(0, { id: 'call_1', name: 'weather', args: '' })),
      ...fragments.map((args) => chunk(toolDelta(0, { args }))),
      chunk({}, 'tool_calls'),
      usageChunk(USAGE),
    ]);
    const partials = events.flatMap((event) =>
      event.type === 'content_block_delta' && event.delta.type === 'input_json_delta' ? [event.delta.partial_json] : [],
    );
    expect(partials).toEqual(fragments);
    const final = await sdkFinalMessage(events);
    expect(final.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } },
    ]);
  });

  it('parallel calls are blocks of their own, numbered on from the text block', () => {
    const { events } = run([
      chunk({ content: 'Both.' }),
      chunk(toolDelta(0, { id: 'call_a', name: 'weather', args: '' })),
      chunk(toolDelta(0, { args: '{"city":"Paris"}' })),
      chunk(toolDelta(1, { id: 'call_b', name: 'weather', args: '' })),
      chunk(toolDelta(1, { args: '{"city":"Rome"}' })),
      chunk({}, 'tool_calls'),
      usageChunk(USAGE),
    ]);
    const starts = events.flatMap((event) => (event.type === 'content_block_start' ? [[event.index, event.content_block.type]] : []));
    expect(starts).toEqual([
      [0, 'text'],
      [1, 'tool_use'],
      [2, 'tool_use'],
    ]);
    expect(expectValidMessagesStream(events).tools).toEqual([
      { id: 'call_a', name: 'weather', input: { city: 'Paris' } },
      { id: 'call_b', name: 'weather', input: { city: 'Rome' } },
    ]);
  });

  it('interleaved calls never interleave blocks: a later call waits, fragments kept, until the open one is complete', async () => {
    const chunks = [
      chunk(toolDelta(0, { id: 'call_a', name: 'first', args: '{"a":' })),
      chunk(toolDelta(1, { id: 'call_b', name: 'second', args: '{"b":' })),
      chunk(toolDelta(1, { args: '2}' })),
      chunk(toolDelta(0, { args: '1}' })),
      chunk({}, 'tool_calls'),
      usageChunk(USAGE),
    ];
    const stream = new ChatToMessagesStream({ publicModel: 'claude-bridged' });
    const perChunk = chunks.map((json) => eventsOf(stream.transform(json)));
    // call_b waits while call_a is incomplete, then starts with its kept fragments as soon as call_a completes.
    expect([perChunk[1], perChunk[2]]).toEqual([[], []]);
    expect(perChunk[3]?.map((event) => (event.type === 'content_block_delta' ? event.delta : event.type))).toEqual([
      { type: 'input_json_delta', partial_json: '1}' },
      'content_block_stop',
      'content_block_start',
      { type: 'input_json_delta', partial_json: '{"b":2}' },
    ]);
    const events = perChunk.flat();
    expect(expectValidMessagesStream(events).tools).toEqual([
      { id: 'call_a', name: 'first', input: { a: 1 } },
      { id: 'call_b', name: 'second', input: { b: 2 } },
    ]);
    expect((await sdkFinalMessage(events)).content.map((block) => block.type === 'tool_use' && block.input)).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('a call still incomplete at the end (cut by length) is closed as it is, and waiting calls follow it whole', () => {
    const { events } = run([
      chunk(toolDelta(0, { id: 'call_a', name: 'first', args: '{"a":' })),
      chunk(toolDelta(1, { id: 'call_b', name: 'second', args: '{"b":2}' })),
      chunk({}, 'length'),
      usageChunk(USAGE),
    ]);
    const partials = events.flatMap((event) =>
      event.type === 'content_block_delta' && event.delta.type === 'input_json_delta' ? [[event.index, event.delta.partial_json]] : [],
    );
    expect(partials).toEqual([
      [0, '{"a":'],
      [1, '{"b":2}'],
    ]);
    expect(events.find((event) => event.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'max_tokens' } });
  });

  it('a server repeating id and name on later fragments gets one block with the name once (OpenRouter/Novita)', () => {
    const { events } = run([
      chunk(toolDelta(0, { id: '0', name: 'llm_version', args: '' })),
      chunk(toolDelta(0, { id: '0', name: 'llm_version', args: '{}' })),
      usageChunk(USAGE),
    ]);
    expect(expectValidMessagesStream(events).tools).toEqual([{ id: '0', name: 'llm_version', input: {} }]);
    // Also while the call waits behind an incomplete one, before its block has started.
    const waiting = run([
      chunk(toolDelta(0, { id: 'call_a', name: 'first', args: '{"a":' })),
      chunk(toolDelta(1, { id: 'call_b', name: 'second', args: '' })),
      chunk(toolDelta(1, { id: 'call_b', name: 'second', args: '{}' })),
      chunk(toolDelta(0, { args: '1}' })),
      usageChunk(USAGE),
    ]).events;
    expect(expectValidMessagesStream(waiting).tools.map((tool) => tool.name)).toEqual(['first', 'second']);
  });

  it('a new id at an index already used is a new call (servers that number every call 0)', () => {
    const { events } = run([
      chunk(toolDelta(0, { id: 'call_a', name: 'f', args: '{"n":1}' })),
      chunk(toolDelta(0, { id: 'call_b', name: 'f', args: '{"n":2}' })),
      chunk({}, 'tool_calls'),
      usageChunk(USAGE),
    ]);
    expect(expectValidMessagesStream(events).tools.map((tool) => [tool.id, tool.input])).toEqual([
      ['call_a', { n: 1 }],
      ['call_b', { n: 2 }],
    ]);
  });

  it('message_delta carries cumulative usage: the whole prompt split into input and cache reads, and the output', async () => {
    const { events } = run([chunk({ content: 'x' }, 'stop'), usageChunk({ ...USAGE, prompt_tokens_details: { cached_tokens: 40, cache_write_tokens: 10 } })]);
    expect(events.find((event) => event.type === 'message_delta')).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 50, output_tokens: 12, cache_read_input_tokens: 40, cache_creation_input_tokens: 10 },
    });
    expect((await sdkFinalMessage(events)).usage).toMatchObject({ input_tokens: 50, output_tokens: 12, cache_read_input_tokens: 40 });
  });

  it('usage on every chunk (vLLM continuous stats) does not end the message; the chunk with the finish reason does', () => {
    const running = (completion: number) => ({ prompt_tokens: 10, completion_tokens: completion, total_tokens: 10 + completion });
    const { events } = run(
      [chunk({ content: 'a' }, null, { usage: running(1) }), chunk({ content: 'b' }, null, { usage: running(2) }), chunk({}, 'length', { usage: running(3) })],
      {},
      false,
    );
    expect(expectValidMessagesStream(events)).toMatchObject({ text: 'ab', stopReason: 'max_tokens', usage: { input_tokens: 10, output_tokens: 3 } });
  });

  it('without a usage chunk, finish() ends the message with the relay’s own counts', () => {
    const { events } = run([chunk({ content: 'four words right here' }, 'stop')], {
      inputTokens: 33,
      countOutputTokens: (text) => text.split(' ').length,
    });
    expect(expectValidMessagesStream(events).usage).toEqual({
      input_tokens: 33,
      output_tokens: 4,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
  });

  it('an answer that called tools but gave no finish reason stops as tool_use; refusal text is text; other choices are ignored', () => {
    const other = JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'u', choices: [{ index: 1, delta: { content: 'NO' }, finish_reason: null }] });
    const { events } = run([chunk({ refusal: 'I would rather not, ' }), other, chunk(toolDelta(0, { id: 'call_1', name: 'f', args: '{}' }))]);
    expect(expectValidMessagesStream(events)).toMatchObject({ text: 'I would rather not, ', stopReason: 'tool_use' });
  });

  it('an empty answer still makes a valid message', () => {
    expect(expectValidMessagesStream(run([]).events)).toMatchObject({ text: '', tools: [], stopReason: 'end_turn' });
  });

  it('a chunk with an error is one error step, and nothing follows it', () => {
    const { stream, steps } = run([chunk({ content: 'partial' })], {}, false);
    const failed = stream.transform(JSON.stringify({ error: { message: 'overloaded', type: 'server_error', code: 'overloaded' } }));
    expect(failed).toHaveLength(1);
    expect(failed[0]?.kind === 'error' && failed[0].error.toBody().error).toMatchObject({ type: 'server_error', code: 'overloaded' });
    expect([stream.transform(chunk({ content: 'more' })), stream.finish()]).toEqual([[], []]);
    expect(steps.every((step) => step.kind === 'chunk')).toBe(true);
  });

  it('a chunk that is not JSON is a bad_response error', () => {
    const [step] = new ChatToMessagesStream({ publicModel: 'm' }).transform('{oops');
    expect(step?.kind === 'error' && step.error.code).toBe('bad_response');
  });

  it('nothing is emitted after message_stop', () => {
    const { stream, events } = run([chunk({ content: 'x' }, 'stop'), usageChunk(USAGE)], {}, false);
    expect(events.at(-1)?.type).toBe('message_stop');
    expect([stream.transform(chunk({ content: 'late' })), stream.transform(usageChunk(USAGE)), stream.finish()]).toEqual([[], [], []]);
  });
});
