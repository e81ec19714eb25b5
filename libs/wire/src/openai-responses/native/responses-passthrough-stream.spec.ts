import { RelayError, upstreamError } from '../../errors/relay-error';
import type { SseEvent, StreamStep } from '../../hub/upstream-adapter';
import { ResponsesPassthroughStream } from './responses-passthrough-stream';
import { readResponsesCassette, readResponsesStreamLines, recordedResponsesStreams } from '../testing/responses-fixtures';

const SECRET = 'sk-proj-passthrough-secret-0123';

const passthrough = (publicModel = 'my-model') => new ResponsesPassthroughStream({ publicModel, callerWantsUsage: false, secrets: [SECRET] });

/** Every event through one transformer, then `finish()`, as the relay's pump does. */
function relay(events: readonly SseEvent[], publicModel = 'my-model') {
  const stream = passthrough(publicModel);
  const steps: StreamStep[] = [...events.flatMap((event) => stream.transform(event)), ...stream.finish()];
  return { stream, steps };
}

const chunksOf = (steps: readonly StreamStep[]) =>
  steps.map((step) => {
    if (step.kind !== 'chunk') throw new Error(`expected only chunks, got ${step.error.message}`);
    return { event: step.event, data: step.json };
  });

interface RecordedEvent {
  type: string;
  sequence_number?: number;
  response?: { id: string; model: string; usage: { input_tokens: number; output_tokens: number; input_tokens_details?: { cached_tokens: number } } | null };
  delta?: string;
  text?: string;
  arguments?: string;
}

const parse = (event: SseEvent) => JSON.parse(event.data) as RecordedEvent;
const LIFECYCLE = ['response.created', 'response.in_progress', 'response.queued', 'response.completed', 'response.incomplete', 'response.failed'];

const streams = recordedResponsesStreams();

describe('ResponsesPassthroughStream on recorded streams', () => {
  it('replays every recorded stream: 5 cassette streams and the 4 of the jsonl file', () => {
    expect(streams.map(([label]) => label)).toHaveLength(9);
  });

  it.each(streams)('%s: every event out as it came, only response.model of the lifecycle events rewritten', (_label, events) => {
    const { stream, steps } = relay(events);
    const out = chunksOf(steps);
    expect(out.map((chunk) => chunk.event)).toEqual(events.map((event) => event.event ?? parse(event).type));
    let lifecycle = 0;
    events.forEach((event, index) => {
      const sent = out[index]!;
      const upstream = parse(event);
      if (!LIFECYCLE.includes(upstream.type)) {
        expect(sent.data).toBe(event.data);
        return;
      }
      lifecycle += 1;
      expect(upstream.response!.model).not.toBe('my-model');
      expect(JSON.parse(sent.data)).toEqual({ ...upstream, response: { ...upstream.response, model: 'my-model' } });
    });
    expect(lifecycle).toBeGreaterThanOrEqual(3);
    expect(stream.complete).toBe(true);
    expect(stream.responseId).toBe(parse(events[0]!).response!.id);
    expect(stream.lastSequenceNumber).toBe(parse(events[events.length - 1]!).sequence_number);
  });

  it.each(streams)('%s: the same data text, lifecycle events too, when the public name is the upstream one', (_label, events) => {
    const upstreamModel = parse(events[0]!).response!.model;
    const out = chunksOf(relay(events, upstreamModel).steps);
    expect(out.map((chunk) => chunk.data)).toEqual(events.map((event) => event.data));
  });

  it.each(streams)('%s: usage is the terminal Response usage', (_label, events) => {
    const recorded = parse(events[events.length - 1]!).response!.usage!;
    const cached = recorded.input_tokens_details?.cached_tokens ?? 0;
    expect(relay(events).stream.usage).toEqual({
      promptTokens: recorded.input_tokens,
      completionTokens: recorded.output_tokens,
      ...(cached > 0 ? { cacheReadTokens: cached } : {}),
    });
  });

  it.each(streams)('%s: delivered text is what the .done events say was written', (_label, events) => {
    const done = events
      .map(parse)
      .map((event) => {
        if (event.type === 'response.output_text.done' || event.type === 'response.reasoning_summary_text.done') return event.text;
        return event.type === 'response.function_call_arguments.done' ? event.arguments : undefined;
      })
      .filter((text): text is string => text !== undefined);
    const { stream } = relay(events);
    expect(done.join('')).not.toBe('');
    expect(stream.deliveredText).toBe(done.join(''));
    expect(stream.deliveredChars).toBe(done.join('').length);
  });

  it.each(streams)('%s: cut halfway, it is not complete and reports no usage', (_label, events) => {
    const half = events.slice(0, Math.ceil(events.length / 2));
    const { stream, steps } = relay(half);
    expect(chunksOf(steps)).toHaveLength(half.length);
    expect(stream.complete).toBe(false);
    expect(stream.usage).toBeUndefined();
    expect(stream.deliveredText.length).toBeLessThanOrEqual(relay(events).stream.deliveredText.length);
  });

  it('reads the recorded counts of cassette-stream-text.yaml and its one word, "pong"', () => {
    const [interaction] = readResponsesCassette('cassette-stream-text.yaml');
    const { stream } = relay(interaction!.responseEvents!);
    expect(stream.usage).toEqual({ promptTokens: 11, completionTokens: 5 });
    expect(stream.deliveredText).toBe('pong');
    expect(stream.responseId).toBe('resp_00592e63e61b66660169fab1b9f8e481a2b321356198d7ac1b');
    expect(stream.lastSequenceNumber).toBe(8);
  });

  it('keeps no sequence number for the March 2025 event shape, which has none: its failure event opens the numbering', () => {
    const [interaction] = readResponsesCassette('cassette-stream-function-call-roundtrip-2025-03.yaml');
    const events = interaction!.responseEvents!;
    const stream = passthrough();
    events.slice(0, 4).forEach((event) => stream.transform(event));
    expect(stream.lastSequenceNumber).toBeUndefined();
    expect(failEvent(stream, upstreamError('The upstream connection was cut.', 'upstream_cut'))).toEqual({
      event: 'error',
      data: { type: 'error', code: 'upstream_cut', message: 'The upstream connection was cut.', param: null, sequence_number: 0 },
    });
  });

  it('ends the insufficient-quota stream with one error step: code insufficient_quota, response.failed not relayed', () => {
    const [events] = readResponsesStreamLines('stream-error-insufficient-quota.stream.jsonl');
    const { stream, steps } = relay(events!);
    expect(steps.slice(0, 2).map((step) => step.kind === 'chunk' && step.event)).toEqual(['response.created', 'response.in_progress']);
    expect(steps).toHaveLength(3);
    const last = steps[2]!;
    if (last.kind !== 'error') throw new Error('expected an error step');
    expect(last.error).toBeInstanceOf(RelayError);
    expect(last.error).toMatchObject({ status: 502, code: 'insufficient_quota', param: null });
    expect(last.error.message).toMatch(/^You exceeded your current quota/);
    expect(stream.complete).toBe(false);
    expect(stream.usage).toBeUndefined();
    expect(stream.responseId).toBe('resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424');
    // The relay then writes the failure in the caller's dialect: the upstream's own error event, renumbered in place.
    const upstreamError = JSON.parse(events![2]!.data) as { sequence_number: number; error: { code: string; message: string } };
    expect(failEvent(stream, last.error)).toEqual({
      event: 'error',
      data: { type: 'error', code: 'insufficient_quota', message: upstreamError.error.message, param: null, sequence_number: upstreamError.sequence_number },
    });
  });
});

describe('ResponsesPassthroughStream protocol', () => {
  const response = (status: string, extra: Record<string, unknown> = {}) => ({
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    status,
    model: 'gpt-5.5-2026-04-23',
    output: [],
    usage: null,
    ...extra,
  });
  const event = (type: string, sequence: number, fields: Record<string, unknown> = {}): SseEvent => ({
    event: type,
    data: JSON.stringify({ type, ...fields, sequence_number: sequence }),
  });
  const created = event('response.created', 0, { response: response('in_progress') });
  const textDelta = (delta: string, sequence: number) =>
    event('response.output_text.delta', sequence, { item_id: 'msg_1', output_index: 0, content_index: 0, delta });
  const completed = (usage: Record<string, unknown> | null, sequence = 9) =>
    event('response.completed', sequence, { response: response('completed', { usage }) });

  it('rewrites only response.model of a lifecycle event, every other field kept in order', () => {
    const [step] = passthrough('my-model').transform(created);
    expect(step).toEqual({ kind: 'chunk', event: 'response.created', json: created.data.replace('"model":"gpt-5.5-2026-04-23"', '"model":"my-model"') });
  });

  it('relays unknown and oddly spaced events with the same name and the exact data text, and names an unnamed one after its type', () => {
    const odd: SseEvent[] = [
      { event: 'response.output_text.delta', data: '{"type":"response.output_text.delta",  "delta":"Hi", "sequence_number": 3}   ' },
      { event: 'response.web_search_call.searching', data: '{"type":"response.web_search_call.searching","item_id":"ws_1","sequence_number":4}' },
      { event: 'keepalive', data: '{"type":"keepalive"}' },
    ];
    const stream = passthrough();
    expect(odd.flatMap((sse) => stream.transform(sse))).toEqual(odd.map((sse) => ({ kind: 'chunk', event: sse.event, json: sse.data })));
    expect(stream.transform({ data: '{"type":"response.future_event","x":1}' })).toEqual([
      { kind: 'chunk', event: 'response.future_event', json: '{"type":"response.future_event","x":1}' },
    ]);
    expect(stream.lastSequenceNumber).toBe(4);
  });

  it('is complete only after a terminal event, and relays nothing after it', () => {
    const stream = passthrough();
    for (const sse of [created, textDelta('Hi', 1)]) {
      stream.transform(sse);
      expect(stream.complete).toBe(false);
    }
    expect(stream.finish()).toEqual([]);
    expect(stream.transform(completed({ input_tokens: 4, output_tokens: 1 }))).toHaveLength(1);
    expect(stream.complete).toBe(true);
    expect(stream.transform(textDelta('late', 10))).toEqual([]);
    expect(stream.deliveredText).toBe('Hi');
    expect(stream.lastSequenceNumber).toBe(9);
  });

  it.each(['response.incomplete', 'response.failed'])('%s is terminal too, its usage read', (type) => {
    const stream = passthrough();
    stream.transform(created);
    const usage = { input_tokens: 120, input_tokens_details: { cached_tokens: 100 }, output_tokens: 16, total_tokens: 136 };
    stream.transform(event(type, 2, { response: response(type === 'response.failed' ? 'failed' : 'incomplete', { usage }) }));
    expect(stream.complete).toBe(true);
    expect(stream.usage).toEqual({ promptTokens: 120, completionTokens: 16, cacheReadTokens: 100 });
  });

  it('has no usage when the terminal Response carries none', () => {
    const stream = passthrough();
    stream.transform(completed(null));
    expect(stream).toMatchObject({ complete: true, usage: undefined });
  });

  it('keeps the id of the first response it saw', () => {
    const stream = passthrough();
    stream.transform(event('response.queued', 0, { response: response('queued', { id: 'resp_first' }) }));
    stream.transform(event('response.in_progress', 1, { response: response('in_progress', { id: 'resp_other' }) }));
    expect(stream.responseId).toBe('resp_first');
  });

  it('counts answer text, refusals, tool input and reasoning as delivered, not the other deltas', () => {
    const stream = passthrough();
    const deltas = [
      event('response.reasoning_summary_text.delta', 1, { delta: 'Think. ' }),
      event('response.reasoning_text.delta', 2, { delta: 'Raw. ' }),
      textDelta('Answer ', 3),
      event('response.refusal.delta', 4, { delta: 'No. ' }),
      event('response.function_call_arguments.delta', 5, { delta: '{"a":1}' }),
      event('response.custom_tool_call_input.delta', 6, { delta: 'print(1)' }),
      event('response.audio.delta', 7, { delta: 'AAAA' }),
      event('response.image_generation_call.partial_image', 8, { partial_image_b64: 'BBBB' }),
    ];
    deltas.forEach((sse) => stream.transform(sse));
    expect(stream.deliveredText).toBe('Think. Raw. Answer No. {"a":1}print(1)');
    expect(stream.deliveredChars).toBe(stream.deliveredText.length);
  });

  it.each([
    ['nested, as OpenAI sends it', { error: { type: 'server_error', code: 'server_error', message: `Failed for key ${SECRET}`, param: null } }],
    ['flat, as the API reference shows it', { code: 'server_error', message: `Failed for key ${SECRET}`, param: null }],
  ])('turns an error event (%s) into one error step, the key redacted, and relays nothing after it', (_shape, fields) => {
    const stream = passthrough();
    stream.transform(created);
    const steps = stream.transform(event('error', 1, fields));
    expect(steps).toHaveLength(1);
    const [step] = steps;
    if (step?.kind !== 'error') throw new Error('expected an error step');
    expect(step.error).toMatchObject({ status: 502, code: 'server_error' });
    expect(step.error.message).toContain('Failed for key');
    expect(step.error.message).not.toContain(SECRET);
    expect(stream.transform(completed({ input_tokens: 1, output_tokens: 1 }))).toEqual([]);
    expect(stream.complete).toBe(false);
    expect(stream.lastSequenceNumber).toBe(0);
  });

  it.each([
    ['not JSON', { event: 'response.output_text.delta', data: '{"type":"response.output_text.delta",' }],
    ['not an object', { event: 'response.output_text.delta', data: '["delta"]' }],
    ['a lifecycle event without its response', { event: 'response.completed', data: '{"type":"response.completed","sequence_number":1}' }],
  ])('data %s is one bad_response error step, then nothing', (_case, sse) => {
    const stream = passthrough();
    expect(stream.transform(sse)).toEqual([{ kind: 'error', error: expect.objectContaining({ status: 502, code: 'bad_response' }) }]);
    expect(stream.transform(completed({ input_tokens: 1, output_tokens: 1 }))).toEqual([]);
    expect(stream.complete).toBe(false);
  });

  it('ignores a [DONE] line some compatible servers add', () => {
    const stream = passthrough();
    expect(stream.transform({ data: '[DONE]' })).toEqual([]);
    expect(stream.transform(created)).toHaveLength(1);
  });

  it('fail() writes the dialect error event after the last sequence number, the key redacted, and ends the stream', () => {
    const stream = passthrough();
    stream.transform(created);
    stream.transform(textDelta('Hel', 1));
    const error = new RelayError({ status: 502, type: 'upstream_error', code: 'upstream_cut', param: null, message: `cut with ${SECRET}` });
    expect(failEvent(stream, error)).toEqual({
      event: 'error',
      data: { type: 'error', code: 'upstream_cut', message: 'cut with [redacted]', param: null, sequence_number: 2 },
    });
    expect(stream.lastSequenceNumber).toBe(2);
    expect(stream.transform(textDelta('lo', 2))).toEqual([]);
    expect(stream.complete).toBe(false);
  });
});

/** The one step `fail()` writes, parsed. */
function failEvent(stream: ResponsesPassthroughStream, error: RelayError) {
  const steps = stream.fail(error);
  expect(steps).toHaveLength(1);
  const [step] = steps;
  if (step?.kind !== 'chunk') throw new Error('expected a chunk');
  return { event: step.event, data: JSON.parse(step.json) as unknown };
}
