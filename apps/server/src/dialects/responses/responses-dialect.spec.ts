import { ResponseObjectSchema, ResponseStreamEventSchema, ResponsesRequestSchema, type ResponseObject } from '@chat-relay/contract';
import { invalidRequest, upstreamError, type StreamStep } from '@chat-relay/wire';
import { responsesDialect, type ResponsesTurn } from './responses-dialect';

const RESPONSE_ID = 'resp_0123456789abcdef';
const CREATED_AT = 1_767_225_600;

/** A turn whose item ids count up per prefix, and whose onBridged calls are recorded in `log`. */
function turnWith(fields: Record<string, unknown> = {}) {
  const log: string[] = [];
  const bridged: ResponseObject[] = [];
  const counters = new Map<string, number>();
  const turn: ResponsesTurn = {
    request: ResponsesRequestSchema.parse({ model: 'gpt-4.1', input: 'Hello', ...fields }),
    responseId: RESPONSE_ID,
    createdAt: CREATED_AT,
    newId: (prefix) => {
      const next = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, next);
      return `${prefix}_${next}`;
    },
    onBridged: (response) => {
      log.push(`bridged:${response.status}`);
      bridged.push(response);
    },
  };
  return { turn, log, bridged, dialect: responsesDialect(turn) };
}

const completion = (content: string | null, finishReason = 'stop', extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'upstream-model',
  choices: [{ index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: finishReason, logprobs: null }],
  usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
});

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
  JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'upstream-model', choices: [{ index: 0, delta, finish_reason: finishReason }] });
const usageChunk = JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'upstream-model', choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } });

/** Each step an event named by its type, whose data parses as a Responses stream event. */
function eventsOf(steps: readonly StreamStep[]) {
  return steps.map((step) => {
    if (step.kind !== 'chunk') throw new Error(`unexpected ${step.kind} step`);
    const data = JSON.parse(step.json) as { type: string; sequence_number: number; response?: ResponseObject };
    expect(step.event).toBe(data.type);
    expect(ResponseStreamEventSchema.safeParse(data).success).toBe(true);
    return data;
  });
}

describe('responsesDialect', () => {
  it("speaks OpenAI's error shape and ends a stream with no marker", () => {
    const { dialect } = turnWith();
    expect(dialect.name).toBe('openai');
    expect(dialect.framing.done).toBe('');
  });

  it('frames an error as a named `error` event with code, message and param, valid as a stream event', () => {
    const { dialect } = turnWith();
    const text = dialect.framing.error(invalidRequest('Bad tool.', 'tools', 'invalid_tool'));
    const [eventLine, dataLine, ...rest] = text.split('\n');
    expect(eventLine).toBe('event: error');
    expect(rest).toEqual(['', '']);
    const data = JSON.parse((dataLine ?? '').replace(/^data: /, '')) as Record<string, unknown>;
    expect(data).toEqual({ type: 'error', code: 'invalid_tool', message: 'Bad tool.', param: 'tools', sequence_number: 0 });
    expect(ResponseStreamEventSchema.safeParse(data).success).toBe(true);
    const codeless = JSON.parse(dialect.framing.error(upstreamError('Gone.', null)).split('\n')[1]?.replace(/^data: /, '') ?? '') as Record<string, unknown>;
    expect(codeless).toMatchObject({ type: 'error', code: null, message: 'Gone.', param: null });
  });

  it("bridges a completion into the turn's Response and hands that Response to onBridged once", () => {
    const { dialect, bridged } = turnWith({ instructions: 'Be brief.' });
    const body = dialect.bridge?.completion(completion('Hi there.'), 'gpt-4.1');
    const response = ResponseObjectSchema.parse(body);
    expect(response).toMatchObject({ id: RESPONSE_ID, object: 'response', created_at: CREATED_AT, status: 'completed', model: 'gpt-4.1', instructions: 'Be brief.' });
    expect(response.output).toEqual([expect.objectContaining({ type: 'message', id: 'msg_1', role: 'assistant', content: [expect.objectContaining({ type: 'output_text', text: 'Hi there.' })] })]);
    expect(response.usage).toMatchObject({ input_tokens: 9, output_tokens: 3, total_tokens: 12 });
    expect(bridged).toEqual([body]);
    expect(bridged[0]).toBe(body);
  });

  it('bridges a cut completion as incomplete, and a tool call as a function_call item with fc_ ids', () => {
    const cut = turnWith();
    expect(cut.dialect.bridge?.completion(completion('Hi th', 'length'), 'gpt-4.1')).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(cut.log).toEqual(['bridged:incomplete']);

    const call = turnWith();
    const toolCalls = [{ id: 'call_7', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }];
    const body = call.dialect.bridge?.completion(completion(null, 'tool_calls', { tool_calls: toolCalls }), 'gpt-4.1');
    expect(ResponseObjectSchema.parse(body).output).toEqual([expect.objectContaining({ type: 'function_call', id: 'fc_1', call_id: 'call_7', name: 'get_weather', arguments: '{"city":"Paris"}' })]);
  });

  it('streams the lifecycle, and calls onBridged with the final Response before finish returns the last event', () => {
    const { dialect, log, bridged } = turnWith();
    const stream = dialect.bridge?.stream('gpt-4.1');
    if (!stream) throw new Error('no bridge');
    const steps = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hel' }), chunk({ content: 'lo' }, 'stop'), usageChunk].flatMap((json) => stream.transform(json));
    expect(log).toEqual([]);
    const last = stream.finish();
    log.push('finish returned');
    expect(log).toEqual(['bridged:completed', 'finish returned']);

    const events = eventsOf([...steps, ...last]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    expect(events[0]?.type).toBe('response.created');
    const final = events[events.length - 1];
    expect(final?.type).toBe('response.completed');
    expect(final?.response).toEqual(bridged[0]);
    expect(bridged[0]).toMatchObject({ id: RESPONSE_ID, model: 'gpt-4.1', status: 'completed', usage: { input_tokens: 9, output_tokens: 2 } });
    expect(new Set(events.flatMap((event) => (event.response ? [event.response.id] : [])))).toEqual(new Set([RESPONSE_ID]));
  });

  it('ends a stream cut by the token limit with response.incomplete, and tells onBridged so', () => {
    const { dialect, bridged } = turnWith();
    const stream = dialect.bridge?.stream('gpt-4.1');
    if (!stream) throw new Error('no bridge');
    stream.transform(chunk({ content: 'Hel' }, 'length'));
    const events = eventsOf(stream.finish());
    expect(events[events.length - 1]?.type).toBe('response.incomplete');
    expect(bridged.map((response) => response.status)).toEqual(['incomplete']);
  });

  it('fail() ends a started stream with response.failed carrying the error, numbered on, and stores nothing', () => {
    const { dialect, bridged } = turnWith();
    const stream = dialect.bridge?.stream('gpt-4.1');
    if (!stream?.fail) throw new Error('no failure events');
    const started = eventsOf([chunk({ content: 'Hel' })].flatMap((json) => stream.transform(json)));
    const failed = eventsOf(stream.fail(upstreamError('The upstream provider closed the connection.', 'upstream_disconnected')));
    expect(failed.map((event) => event.type)).toEqual(['response.failed']);
    expect(failed[0]?.sequence_number).toBe(started.length);
    expect(failed[0]?.response).toMatchObject({ id: RESPONSE_ID, status: 'failed', error: { code: 'server_error', message: 'The upstream provider closed the connection.' } });
    expect(bridged).toEqual([]);
    expect(stream.finish()).toEqual([]);
  });

  it('fail() before any event still opens the stream: created, in_progress, failed; a 429 keeps its code', () => {
    const { dialect } = turnWith();
    const stream = dialect.bridge?.stream('gpt-4.1');
    const events = eventsOf(stream?.fail?.(upstreamError('Slow down.', 'rate_limited', 429)) ?? []);
    expect(events.map((event) => `${event.sequence_number} ${event.type}`)).toEqual(['0 response.created', '1 response.in_progress', '2 response.failed']);
    expect(events[2]?.response).toMatchObject({ status: 'failed', error: { code: 'rate_limit_exceeded' } });
  });

  it('gives each answer its own stream state: a second stream starts at sequence 0 again', () => {
    const { dialect } = turnWith();
    const first = dialect.bridge?.stream('gpt-4.1');
    first?.transform(chunk({ content: 'a' }));
    const second = dialect.bridge?.stream('gpt-4.1');
    expect(eventsOf(second?.transform(chunk({ content: 'b' })) ?? [])[0]?.sequence_number).toBe(0);
  });
});
