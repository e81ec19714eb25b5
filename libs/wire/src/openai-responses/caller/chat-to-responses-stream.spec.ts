import { RelayError, upstreamError } from '../../errors/relay-error';
import type { StreamStep } from '../../hub/upstream-adapter';
import { ChatToResponsesStream } from './chat-to-responses-stream';
import { responsesErrorCode } from './responses-error-code';
import { aiSdkStreamParts, aiSdkSummary } from '../testing/ai-sdk-stream-parts';
import { responsesRequest } from '../testing/bridge-responses-request';
import { CREATED_AT, PUBLIC_MODEL, RESPONSE_ID, sequentialIds } from '../testing/responses-identity';
import { eventsOf, expectValidResponsesStream, sdkFinalResponse, type ResponsesEvent } from '../testing/responses-stream-checks';

type Delta = Record<string, unknown>;
const chunk = (delta: Delta, finishReason: string | null = null, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 'chatcmpl-s1', object: 'chat.completion.chunk', created: 1, model: 'upstream', choices: [{ index: 0, delta, finish_reason: finishReason, ...extra }] });
const usageChunk = (usage: Record<string, unknown>) =>
  JSON.stringify({ id: 'chatcmpl-s1', object: 'chat.completion.chunk', created: 1, model: 'upstream', choices: [], usage });
const USAGE = { prompt_tokens: 100, completion_tokens: 12, total_tokens: 112, prompt_tokens_details: { cached_tokens: 40 }, completion_tokens_details: { reasoning_tokens: 4 } };
const toolDelta = (index: number, fields: { id?: string; name?: string; args?: string }) => ({
  tool_calls: [
    {
      index,
      ...(fields.id ? { id: fields.id, type: 'function' } : {}),
      function: { ...(fields.name ? { name: fields.name } : {}), ...(fields.args !== undefined ? { arguments: fields.args } : {}) },
    },
  ],
});

function newStream(fields: Record<string, unknown> = {}) {
  return new ChatToResponsesStream({ request: responsesRequest({ stream: true, ...fields }), responseId: RESPONSE_ID, createdAt: CREATED_AT, publicModel: PUBLIC_MODEL, newId: sequentialIds() });
}

function run(chunks: string[], { finish = true, fields = {} }: { finish?: boolean; fields?: Record<string, unknown> } = {}) {
  const stream = newStream(fields);
  const steps: StreamStep[] = chunks.flatMap((json) => stream.transform(json));
  if (finish) steps.push(...stream.finish());
  return { stream, steps, events: eventsOf(steps) };
}

const typesOf = (events: readonly ResponsesEvent[]) => events.map((event) => event.type);

describe('ChatToResponsesStream', () => {
  it('a text answer: the whole lifecycle, in order, and the SDK rebuilds the text', async () => {
    const { events, stream } = run([chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hel' }), chunk({ content: 'lo' }, 'stop'), usageChunk(USAGE)]);
    expect(typesOf(events)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const summary = expectValidResponsesStream(events);
    expect(summary.text).toBe('Hello');
    expect(events[2]).toEqual({
      type: 'response.output_item.added',
      sequence_number: 2,
      output_index: 0,
      item: { type: 'message', id: 'msg_1', status: 'in_progress', role: 'assistant', content: [] },
    });
    expect(events[4]).toEqual({ type: 'response.output_text.delta', sequence_number: 4, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hel', logprobs: [] });
    expect(summary.response).toEqual(stream.response);
    expect(summary.response).toMatchObject({
      id: RESPONSE_ID,
      status: 'completed',
      model: PUBLIC_MODEL,
      usage: { input_tokens: 100, input_tokens_details: { cached_tokens: 40, cache_write_tokens: 0 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 4 }, total_tokens: 112 },
    });
    const final = await sdkFinalResponse(events);
    expect([final.output_text, final.status, final.id]).toEqual(['Hello', 'completed', RESPONSE_ID]);
  });

  it('reasoning text is a reasoning item with one summary part, closed before the message opens', async () => {
    const { events } = run([chunk({ reasoning_content: 'Let me ' }), chunk({ reasoning_content: 'think.' }), chunk({ content: 'Answer.' }, 'stop'), usageChunk(USAGE)]);
    expect(typesOf(events).slice(2, 10)).toEqual([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
    ]);
    const summary = expectValidResponsesStream(events);
    expect([summary.reasoning, summary.text]).toEqual(['Let me think.', 'Answer.']);
    expect(summary.response.output[0]).toEqual({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Let me think.' }] });
    const final = await sdkFinalResponse(events);
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
  });

  it('text AND tool calls of one turn are both kept: the message closes before the first call opens', async () => {
    const { events } = run([
      chunk({ content: 'Checking.' }),
      chunk(toolDelta(0, { id: 'call_1', name: 'weather', args: '' })),
      chunk(toolDelta(0, { args: '{"city":' })),
      chunk(toolDelta(0, { args: '"Paris"}' })),
      chunk({}, 'tool_calls'),
      usageChunk(USAGE),
    ]);
    const summary = expectValidResponsesStream(events);
    expect(summary.text).toBe('Checking.');
    expect(summary.calls).toEqual([{ call_id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' }]);
    const messageDone = typesOf(events).indexOf('response.output_item.done');
    const callAdded = events.findIndex((event) => event.type === 'response.output_item.added' && event.item.type === 'function_call');
    expect(messageDone).toBeLessThan(callAdded);
    expect(events[callAdded]?.item).toEqual({ type: 'function_call', id: 'fc_2', call_id: 'call_1', name: 'weather', arguments: '', status: 'in_progress' });
    const final = await sdkFinalResponse(events);
    expect(final.output.map((item) => item.type)).toEqual(['message', 'function_call']);
    expect(final.output[1]).toMatchObject({ call_id: 'call_1', arguments: '{"city":"Paris"}', status: 'completed' });
  });

  it('interleaved calls stay open side by side, each delta routed to its own item, closed in output order at the end', () => {
    const { events } = run([
      chunk(toolDelta(0, { id: 'call_a', name: 'weather', args: '{"city":' })),
      chunk(toolDelta(1, { id: 'call_b', name: 'time', args: '{"tz":' })),
      chunk(toolDelta(0, { args: '"Paris"}' })),
      chunk(toolDelta(1, { args: '"CET"}' })),
      chunk({}, 'tool_calls'),
      usageChunk(USAGE),
    ]);
    const summary = expectValidResponsesStream(events);
    expect(summary.calls).toEqual([
      { call_id: 'call_a', name: 'weather', arguments: '{"city":"Paris"}' },
      { call_id: 'call_b', name: 'time', arguments: '{"tz":"CET"}' },
    ]);
    const deltas = events.filter((event) => event.type === 'response.function_call_arguments.delta').map((event) => [event.item_id, event.delta]);
    expect(deltas).toEqual([
      ['fc_1', '{"city":'],
      ['fc_2', '{"tz":'],
      ['fc_1', '"Paris"}'],
      ['fc_2', '"CET"}'],
    ]);
    const closes = events.filter((event) => event.type === 'response.output_item.done').map((event) => event.output_index);
    expect(closes).toEqual([0, 1]);
  });

  it('arguments sent with the id and name are a delta after output_item.added, never part of the added item', () => {
    const { events } = run([chunk(toolDelta(0, { id: 'call_g', name: 'weather', args: '{"city":"Oslo"}' }), 'tool_calls'), usageChunk(USAGE)]);
    expect(typesOf(events).slice(2, 6)).toEqual([
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
    ]);
    expect(expectValidResponsesStream(events).calls).toEqual([{ call_id: 'call_g', name: 'weather', arguments: '{"city":"Oslo"}' }]);
  });

  it('a call whose name comes after its first fragments opens once named, its earlier arguments as one delta', () => {
    const { events } = run([chunk(toolDelta(0, { id: 'call_n', args: '{"a"' })), chunk(toolDelta(0, { name: 'late', args: ':1}' })), chunk({}, 'tool_calls')]);
    const deltas = events.filter((event) => event.type === 'response.function_call_arguments.delta').map((event) => event.delta);
    expect(deltas).toEqual(['{"a":1}']);
    expect(expectValidResponsesStream(events).calls).toEqual([{ call_id: 'call_n', name: 'late', arguments: '{"a":1}' }]);
  });

  it('a new id at a known index is a new call (servers that number every call 0)', () => {
    const { events } = run([
      chunk(toolDelta(0, { id: 'call_1', name: 'a', args: '{}' })),
      chunk(toolDelta(0, { id: 'call_2', name: 'b', args: '{}' })),
      chunk({}, 'tool_calls'),
    ]);
    expect(expectValidResponsesStream(events).calls.map((call) => call.call_id)).toEqual(['call_1', 'call_2']);
  });

  it('a refusal is a refusal part; text then refusal are two parts of one message', async () => {
    const { events } = run([chunk({ content: 'Well, ' }), chunk({ refusal: 'I cannot ' }), chunk({ refusal: 'help.' }, 'stop')]);
    const summary = expectValidResponsesStream(events);
    expect([summary.text, summary.refusal]).toEqual(['Well, ', 'I cannot help.']);
    expect(summary.response.output).toEqual([
      {
        type: 'message',
        id: 'msg_1',
        status: 'completed',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Well, ', annotations: [], logprobs: [] },
          { type: 'refusal', refusal: 'I cannot help.' },
        ],
      },
    ]);
    expect(typesOf(events)).toContain('response.refusal.done');
    const final = await sdkFinalResponse(events);
    expect(final.output[0]).toMatchObject({ content: [{ text: 'Well, ' }, { refusal: 'I cannot help.' }] });
  });

  it.each([
    ['length', 'max_output_tokens'],
    ['content_filter', 'content_filter'],
  ])('finish_reason %s → response.incomplete, reason %s', (finishReason, reason) => {
    const { events } = run([chunk({ content: 'Cut' }, finishReason), usageChunk(USAGE)]);
    const summary = expectValidResponsesStream(events);
    expect(events.at(-1)?.type).toBe('response.incomplete');
    expect([summary.response.status, summary.response.incomplete_details]).toEqual(['incomplete', { reason }]);
  });

  it('no usage chunk: the final Response has no usage rather than zeros', () => {
    const { events } = run([chunk({ content: 'x' }, 'stop')]);
    expect(expectValidResponsesStream(events).response).not.toHaveProperty('usage');
  });

  it('an empty answer still has its whole lifecycle', () => {
    const { events } = run([chunk({ role: 'assistant', content: '' }, 'stop')]);
    expect(typesOf(events)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(expectValidResponsesStream(events).response.output).toEqual([]);
  });

  it('logprobs ride on the text deltas and land in the final part', () => {
    const logprobs = { content: [{ token: 'Hi', logprob: -0.5, bytes: [72, 105], top_logprobs: [{ token: 'Hi', logprob: -0.5, bytes: [72, 105] }] }] };
    const { events } = run([chunk({ content: 'Hi' }, 'stop', { logprobs })], { fields: { top_logprobs: 1 } });
    const summary = expectValidResponsesStream(events);
    expect(events.find((event) => event.type === 'response.output_text.delta')?.logprobs).toEqual([
      { token: 'Hi', logprob: -0.5, top_logprobs: [{ token: 'Hi', logprob: -0.5 }] },
    ]);
    expect(summary.response.output[0]).toMatchObject({ content: [{ logprobs: [{ token: 'Hi', logprob: -0.5, bytes: [72, 105], top_logprobs: [{ token: 'Hi', logprob: -0.5, bytes: [72, 105] }] }] }] });
  });

  it('the response getter is the Response as it stands, then the final one', () => {
    const stream = newStream();
    stream.transform(chunk({ content: 'Part' }));
    expect(stream.response).toMatchObject({
      status: 'in_progress',
      output: [{ type: 'message', status: 'in_progress', content: [{ type: 'output_text', text: 'Part' }] }],
    });
    expect(stream.response).not.toHaveProperty('usage');
    const [completed] = eventsOf(stream.finish()).filter((event) => event.type === 'response.completed');
    expect(stream.response).toEqual(completed?.response);
    expect(stream.failed).toBe(false);
  });
});

describe('ChatToResponsesStream failures', () => {
  it('fail(): one response.failed with the output so far (open items incomplete) and the mapped error; nothing after it', async () => {
    const stream = newStream();
    const steps = [chunk({ content: 'Half an ans' }), chunk(toolDelta(0, { id: 'call_1', name: 'f', args: '{"a":' }))].flatMap((json) => stream.transform(json));
    steps.push(...stream.fail(upstreamError('The upstream provider closed the connection.', 'upstream_closed')));
    const events = eventsOf(steps);
    const summary = expectValidResponsesStream(events);
    expect(events.at(-1)?.type).toBe('response.failed');
    expect(summary.response).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: 'The upstream provider closed the connection.' },
      output: [
        { type: 'message', status: 'completed', content: [{ type: 'output_text', text: 'Half an ans' }] },
        { type: 'function_call', call_id: 'call_1', arguments: '{"a":', status: 'incomplete' },
      ],
    });
    expect(stream.failed).toBe(true);
    expect([stream.transform(chunk({ content: 'more' })), stream.finish(), stream.fail(upstreamError('again', null))]).toEqual([[], [], []]);
    await expect(sdkFinalResponse(events)).resolves.toMatchObject({ status: 'failed' });
  });

  it('fail() before any chunk still opens the response first: created, in_progress, failed', () => {
    const stream = newStream();
    const events = eventsOf(stream.fail(upstreamError('No answer.', null, 504)));
    expect(typesOf(events)).toEqual(['response.created', 'response.in_progress', 'response.failed']);
    expectValidResponsesStream(events);
  });

  it('a malformed chunk or one with an error is one error step, then fail() says it the Responses way', () => {
    const stream = newStream();
    const first = stream.transform(chunk({ content: 'x' }));
    const [step] = stream.transform('{not json');
    expect(step?.kind).toBe('error');
    expect(stream.transform(chunk({ content: 'ignored' }))).toEqual([]);
    expect(stream.finish()).toEqual([]);
    if (step?.kind !== 'error') throw new Error('expected an error step');
    const events = eventsOf([...first, ...stream.fail(step.error)]);
    expect(expectValidResponsesStream(events).response.error).toEqual({ code: 'server_error', message: 'The upstream provider sent a malformed stream event.' });

    const inStream = newStream().transform(JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }));
    expect(inStream).toEqual([{ kind: 'error', error: expect.objectContaining({ code: 'rate_limit_exceeded', message: 'Rate limit reached' }) }]);
  });

  it('after finish() there is nothing to fail', () => {
    const stream = newStream();
    stream.transform(chunk({ content: 'x' }, 'stop'));
    stream.finish();
    expect(stream.fail(upstreamError('late', null))).toEqual([]);
    expect(stream.response.status).toBe('completed');
  });

  it.each([
    ['rate_limit_exceeded', 502, 'rate_limit_exceeded'],
    ['insufficient_quota', 429, 'insufficient_quota'],
    ['context_length_exceeded', 400, 'context_length_exceeded'],
    ['invalid_prompt', 400, 'invalid_prompt'],
    ['upstream_429', 429, 'rate_limit_exceeded'],
    ['upstream_timeout', 504, 'server_error'],
    [null, 502, 'server_error'],
  ])('responsesErrorCode: code %s, status %s → %s', (code, status, expected) => {
    expect(responsesErrorCode(new RelayError({ status, type: 'upstream_error', code, message: 'm' }))).toBe(expected);
  });
});

describe('peer bugs', () => {
  it('LiteLLM: output_item.added always comes before the deltas of its item (an unopened message breaks the AI SDK)', async () => {
    const { events } = run([
      chunk({ role: 'assistant', content: 'First words' }),
      chunk(toolDelta(0, { id: 'call_1', name: 'f', args: '{}' })),
      chunk({ content: 'Text after the call' }),
      chunk({ reasoning_content: 'and thinking' }),
      chunk({}, 'tool_calls'),
    ]);
    const opened = new Set<string>();
    for (const event of events) {
      if (event.type === 'response.output_item.added') opened.add(event.item.id);
      if (event.item_id !== undefined) expect({ event: event.type, opened: opened.has(event.item_id) }).toEqual({ event: event.type, opened: true });
    }
    const summary = expectValidResponsesStream(events);
    expect(summary.text).toBe('First wordsText after the call');
    expect(summary.response.output.map((item) => item.type)).toEqual(['message', 'function_call', 'message', 'reasoning']);
    const aiSdk = aiSdkSummary(await aiSdkStreamParts(events));
    expect(aiSdk.errors).toEqual([]);
    expect([aiSdk.text, aiSdk.calls]).toEqual(['First wordsText after the call', [{ call_id: 'call_1', name: 'f', arguments: '{}' }]]);
  });

  describe('Codex tools (issue 29): names restored, custom tools as custom_tool_call', () => {
    const codexTools = {
      tools: [
        { type: 'namespace', name: 'clock', description: 'Time.', tools: [{ type: 'function', name: 'sleep', parameters: { type: 'object' } }] },
        { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } },
      ],
      input: [{ type: 'additional_tools', id: 'at_1', role: 'developer', tools: [{ type: 'namespace', name: 'functions', description: '', tools: [{ type: 'custom', name: 'exec' }] }] }, { role: 'user', content: 'Go' }],
    };

    it('codex_namespace_call_name: a namespaced function call comes back under its own name, with its namespace, on every event', () => {
      const { events, stream } = run([chunk(toolDelta(0, { id: 'call_1', name: 'clock__sleep', args: '{"ms"' })), chunk(toolDelta(0, { args: ':1}' }), 'tool_calls')], { fields: codexTools });
      const added = events.find((event) => event.type === 'response.output_item.added');
      expect(added?.['item']).toEqual({ type: 'function_call', id: 'fc_1', call_id: 'call_1', namespace: 'clock', name: 'sleep', arguments: '', status: 'in_progress' });
      expect(events.find((event) => event.type === 'response.function_call_arguments.done')).toMatchObject({ name: 'sleep', arguments: '{"ms":1}' });
      expect(stream.response.output).toEqual([{ type: 'function_call', id: 'fc_1', call_id: 'call_1', namespace: 'clock', name: 'sleep', arguments: '{"ms":1}', status: 'completed' }]);
    });

    it('codex_custom_call_anthropic_gemini: a custom tool called as its one-string function (Anthropic, Gemini) → custom_tool_call, its input told whole when it closes', () => {
      const args = JSON.stringify({ input: 'text(await tools.exec_command({ cmd: "echo hi" }));' });
      const { events, stream } = run([chunk(toolDelta(0, { id: 'call_1', name: 'functions__exec', args: args.slice(0, 10) })), chunk(toolDelta(0, { args: args.slice(10) }), 'tool_calls')], { fields: codexTools });
      expect(typesOf(events).slice(2)).toEqual([
        'response.output_item.added',
        'response.custom_tool_call_input.delta',
        'response.custom_tool_call_input.done',
        'response.output_item.done',
        'response.completed',
      ]);
      expect(events[2]?.['item']).toEqual({ type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_1', namespace: 'functions', name: 'exec', input: '', status: 'in_progress' });
      const input = 'text(await tools.exec_command({ cmd: "echo hi" }));';
      expect(events[3]).toMatchObject({ item_id: 'ctc_1', output_index: 0, delta: input });
      expect(events[4]).toMatchObject({ item_id: 'ctc_1', output_index: 0, input });
      expect(stream.response.output).toEqual([{ type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_1', namespace: 'functions', name: 'exec', input, status: 'completed' }]);
    });

    it('codex_custom_call_openai_chat: a Chat Completions custom tool call streams its input as custom_tool_call_input deltas', () => {
      const custom = (fields: Record<string, unknown>) => ({ tool_calls: [{ index: 0, ...fields }] });
      const { events, stream } = run(
        [chunk(custom({ id: 'call_9', type: 'custom', custom: { name: 'apply_patch', input: '' } })), chunk(custom({ custom: { input: '*** Begin' } })), chunk(custom({ custom: { input: ' Patch' } }), 'tool_calls')],
        { fields: codexTools },
      );
      expect(events.filter((event) => event.type === 'response.custom_tool_call_input.delta').map((event) => event['delta'])).toEqual(['*** Begin', ' Patch']);
      expect(stream.response.output).toEqual([{ type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_9', name: 'apply_patch', input: '*** Begin Patch', status: 'completed' }]);
    });
  });

  it('a role-only first chunk opens no empty message item', () => {
    const { events } = run([chunk({ role: 'assistant', content: '' }), chunk(toolDelta(0, { id: 'call_1', name: 'f', args: '{}' }), 'tool_calls')]);
    expect(expectValidResponsesStream(events).response.output.map((item) => item.type)).toEqual(['function_call']);
  });

  it('the terminal event carries the whole output, not an empty one (clients read the final Response from it)', () => {
    const { events } = run([chunk({ content: 'Kept' }, 'stop'), usageChunk(USAGE)]);
    expect(events.at(-1)?.response.output).toHaveLength(1);
  });
});
