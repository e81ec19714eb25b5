import type Anthropic from '@anthropic-ai/sdk';
import { readFixture } from '../testing/fixtures';
import { anthropicClient, CLAUDE, namedEventsOf, postAnthropic, textOf, toolUsesOf } from './anthropic-e2e';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { readCassette, readStreamRecording } from './recorded-traffic';
import { startRecordingUpstream, type CannedAnswer, type RecordingUpstream } from './recording-upstream';

/** A recorded answer, and what the recorded client asked for it when the recording has it. */
interface Replay {
  name: string;
  answer: CannedAnswer;
  request?: Record<string, unknown>;
}

const sse = (body: string): CannedAnswer => ({ contentType: 'text/event-stream', body });
const json = (body: string, status = 200): CannedAnswer => ({ contentType: 'application/json', body, status });

/** Every interaction of a cassette as a replay, split by whether it was streamed. */
function cassetteReplays(path: string): Replay[] {
  return readCassette(path).map((exchange, index) => ({
    name: `${path} #${index}`,
    request: exchange.request,
    answer: exchange.body.trimStart().startsWith('{') ? json(exchange.body, exchange.status) : sse(exchange.body),
  }));
}

const streamReplay = (path: string): Replay => ({ name: path, answer: sse(readStreamRecording(path)) });

const anthropicStreams: Replay[] = [
  ...[
    'anthropic/message-text.stream.jsonl',
    'anthropic/message-tool-no-args.stream.jsonl',
    'anthropic/stream-max-tokens-mid-tool-input.sse',
    'anthropic/stream-text-then-tool-use.sse',
  ].map(streamReplay),
  ...[
    'anthropic/cassette-stream-parallel-tool-use-roundtrip.yaml',
    'anthropic/cassette-stream-thinking.yaml',
    'anthropic-inbound/cassette-image-base64-stream.yaml',
    'anthropic-inbound/cassette-stream-thinking-display-tool-chain.yaml',
  ].flatMap(cassetteReplays),
];

const anthropicMessages: Replay[] = [
  { name: 'anthropic/message-text.json', answer: json(readFixture('anthropic/message-text.json')) },
  ...[
    'anthropic/cassette-parallel-tool-use-roundtrip.yaml',
    'anthropic/cassette-image-url-source.yaml',
    'anthropic-inbound/cassette-thinking-tool-result-roundtrip.yaml',
    'anthropic-inbound/cassette-document-pdf-base64.yaml',
  ].flatMap(cassetteReplays),
  // The count_tokens cassettes end with the message their prompt was then sent as.
  ...['anthropic-inbound/cassette-count-tokens-cache-control.yaml', 'anthropic-inbound/cassette-count-tokens-tools-thinking.yaml']
    .flatMap(cassetteReplays)
    .filter((replay) => replay.request?.['max_tokens'] !== undefined),
];

/** A plain request for recordings that come without theirs. */
const plainRequest = { model: CLAUDE, max_tokens: 1024, messages: [{ role: 'user', content: 'Hello there' }] };

/** The caller's request for a replay: the recorded one when there is one, under the caller's model name. */
const callerRequest = (replay: Replay, stream: boolean): Record<string, unknown> => ({
  ...(replay.request ?? plainRequest),
  model: CLAUDE,
  stream,
});

/** One relay in front of a recording upstream whose next answer each test chooses. */
function relayInFront(type: 'anthropic' | 'openai') {
  const state: { e2e?: E2eRelay; upstream?: RecordingUpstream; answer?: CannedAnswer } = {};
  beforeAll(async () => {
    state.upstream = await startRecordingUpstream((call) => {
      // The model list the relay fetches when a glob channel is created.
      if (call.method === 'GET') return json('{"data":[],"has_more":false}');
      if (!state.answer) throw new Error('no answer chosen');
      return state.answer;
    });
    state.e2e = await startE2eRelay();
    await state.e2e.addChannel(state.upstream.baseUrl, { type, models: ['claude-*'] });
  });
  afterAll(async () => {
    await state.e2e?.close();
    await state.upstream?.close();
  });
  return {
    serve(answer: CannedAnswer) {
      state.answer = answer;
      state.upstream?.calls.splice(0);
    },
    get e2e(): E2eRelay {
      if (!state.e2e) throw new Error('relay not started');
      return state.e2e;
    },
  };
}

describe('e2e: recorded Anthropic answers through an anthropic channel reach the caller as Anthropic sent them', () => {
  const relay = relayInFront('anthropic');

  it.each(anthropicStreams.map((replay) => [replay.name, replay] as const))('stream %s', async (_name, replay) => {
    relay.serve(replay.answer);
    const response = await postAnthropic(relay.e2e, '/v1/messages', callerRequest(replay, true));
    expect(response.status).toBe(200);

    const received = namedEventsOf(await response.text());
    const recorded = namedEventsOf(replay.answer.body);
    expect(received.map((event) => event.event)).toEqual(recorded.map((event) => event.event));
    // Every event after message_start with the same data text, byte for byte.
    expect(received.slice(1)).toEqual(recorded.slice(1));
    const start = JSON.parse(recorded[0]?.data ?? '') as { message: Record<string, unknown> };
    expect(start.message['model']).not.toBe(CLAUDE);
    expect(JSON.parse(received[0]?.data ?? '')).toEqual({ ...start, message: { ...start.message, model: CLAUDE } });
  });

  it('stream asked under the recorded model’s own name: message_start too arrives as sent', async () => {
    const body = readStreamRecording('anthropic/stream-text-then-tool-use.sse');
    relay.serve(sse(body));
    const recorded = namedEventsOf(body);
    const model = (JSON.parse(recorded[0]?.data ?? '') as { message: { model: string } }).message.model;
    const response = await postAnthropic(relay.e2e, '/v1/messages', { ...plainRequest, model, stream: true });
    expect(namedEventsOf(await response.text())).toEqual(recorded);
  });

  it.each(anthropicMessages.map((replay) => [replay.name, replay] as const))('message %s', async (_name, replay) => {
    relay.serve(replay.answer);
    const response = await postAnthropic(relay.e2e, '/v1/messages', callerRequest(replay, false));
    expect(response.status).toBe(200);
    const recorded = JSON.parse(replay.answer.body) as Record<string, unknown>;
    expect(await response.json()).toEqual({ ...recorded, model: CLAUDE });
  });

  it('message asked under the recorded model’s own name: the upstream’s bytes as they came', async () => {
    const body = readFixture('anthropic/message-text.json');
    relay.serve(json(body));
    const model = (JSON.parse(body) as { model: string }).model;
    const response = await postAnthropic(relay.e2e, '/v1/messages', { ...plainRequest, model });
    expect(await response.text()).toBe(body);
  });

  it('a recorded 400: the caller gets Anthropic’s status, type and message', async () => {
    const [replay] = cassetteReplays('anthropic/cassette-error-400-invalid-request.yaml');
    relay.serve(replay!.answer);
    const response = await postAnthropic(relay.e2e, '/v1/messages', callerRequest(replay!, false));
    const recorded = JSON.parse(replay!.answer.body) as { error: { type: string; message: string } };
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'error', error: recorded.error });
  });
});

/** What a recorded OpenAI answer says, read from its chunks (or message) without the relay's code. */
interface ExpectedAnswer {
  text: string;
  tools: Array<[string, unknown]>;
  stopReason: Anthropic.StopReason;
  outputTokens: number | undefined;
}

const STOP_REASONS: Record<string, Anthropic.StopReason> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

interface ChatDelta {
  content?: string | null;
  tool_calls?: Array<{ index: number; function?: { name?: string; arguments?: string } }>;
}
interface ChatChunk {
  choices?: Array<{ index: number; delta?: ChatDelta; finish_reason?: string | null }>;
  usage?: { completion_tokens?: number } | null;
}

function expectedFromStream(text: string): ExpectedAnswer {
  const chunks = namedEventsOf(text)
    .filter((event) => event.data !== '[DONE]')
    .map((event) => JSON.parse(event.data) as ChatChunk);
  let content = '';
  let finish: string | undefined;
  let outputTokens: number | undefined;
  const calls = new Map<number, { name: string; arguments: string }>();
  for (const chunk of chunks) {
    if (chunk.usage?.completion_tokens !== undefined) outputTokens = chunk.usage.completion_tokens;
    const choice = chunk.choices?.find((candidate) => candidate.index === 0);
    content += choice?.delta?.content ?? '';
    for (const call of choice?.delta?.tool_calls ?? []) {
      const entry = calls.get(call.index) ?? { name: '', arguments: '' };
      // The name comes whole (some servers repeat it in later deltas); arguments come in pieces.
      entry.name = call.function?.name || entry.name;
      entry.arguments += call.function?.arguments ?? '';
      calls.set(call.index, entry);
    }
    if (choice?.finish_reason) finish = choice.finish_reason;
  }
  const tools = [...calls.entries()]
    .sort(([left], [right]) => left - right)
    .map(([, call]): [string, unknown] => [call.name, call.arguments === '' ? {} : JSON.parse(call.arguments)]);
  // Some OpenAI-compatible servers never send a finish_reason: calls made read as tool_calls.
  finish ??= tools.length > 0 ? 'tool_calls' : 'stop';
  return { text: content, tools, stopReason: STOP_REASONS[finish] ?? 'end_turn', outputTokens };
}

function expectedFromCompletion(text: string): ExpectedAnswer {
  const completion = JSON.parse(text) as {
    choices: Array<{
      message: { content: string | null; tool_calls?: Array<{ function: { name: string; arguments: string } }> };
      finish_reason: string;
    }>;
    usage?: { completion_tokens: number };
  };
  const [choice] = completion.choices;
  return {
    text: choice?.message.content ?? '',
    tools: (choice?.message.tool_calls ?? []).map((call): [string, unknown] => [call.function.name, JSON.parse(call.function.arguments)]),
    stopReason: STOP_REASONS[choice?.finish_reason ?? 'stop'] ?? 'end_turn',
    outputTokens: completion.usage?.completion_tokens,
  };
}

const openAiStreams: Replay[] = [
  ...[
    'openai/chat-stream-text.sse',
    'openai/chat-stream-tool-call.sse',
    'openai/chat-stream-parallel-tool-calls.sse',
    'openai/chat-stream-finish-length.sse',
    'openai/chat-stream-logprobs.sse',
    'openai/chat-completion-text.stream.jsonl',
  ].map(streamReplay),
  ...[
    'openai/cassette-chat-stream-tool-roundtrip.yaml',
    'openai-compatible/openrouter-stream-tool-call-variant-a.yaml',
    'openai-compatible/openrouter-stream-tool-call-variant-c.yaml',
  ].flatMap(cassetteReplays),
];

const openAiCompletions: Replay[] = [
  { name: 'openai/chat-completion-text.json', answer: json(readFixture('openai/chat-completion-text.json')) },
  ...['openai/cassette-chat-parallel-tool-calls-roundtrip.yaml', 'openai/cassette-chat-image-url-after-tool.yaml'].flatMap(cassetteReplays),
];

/** The answer as the caller's SDK reads it, against what the recording says. */
function expectSameAnswer(message: Anthropic.Message, expected: ExpectedAnswer): void {
  expect(message).toMatchObject({ type: 'message', role: 'assistant', model: CLAUDE, stop_reason: expected.stopReason });
  expect(textOf(message)).toBe(expected.text);
  expect(toolUsesOf(message).map((use) => [use.name, use.input])).toEqual(expected.tools);
  for (const block of message.content) if (block.type === 'text') expect(block.text).not.toBe('');
  if (expected.outputTokens !== undefined) expect(message.usage.output_tokens).toBe(expected.outputTokens);
}

describe('e2e: recorded OpenAI answers through an openai channel reach a Messages caller as a valid Message', () => {
  const relay = relayInFront('openai');
  const question: Anthropic.MessageCreateParamsNonStreaming = {
    model: CLAUDE,
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'Hello there' }],
  };

  it.each(openAiStreams.map((replay) => [replay.name, replay] as const))('stream %s', async (_name, replay) => {
    relay.serve(replay.answer);
    const stream = anthropicClient(relay.e2e).messages.stream(question);
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const final = await stream.finalMessage();

    expectSameAnswer(final, expectedFromStream(replay.answer.body));
    expect(types[0]).toBe('message_start');
    expect(types.filter((type) => type === 'message_start')).toHaveLength(1);
    expect(types.filter((type) => type === 'message_delta')).toHaveLength(1);
    expect(types.at(-1)).toBe('message_stop');
  });

  it.each(openAiCompletions.map((replay) => [replay.name, replay] as const))('message %s', async (_name, replay) => {
    relay.serve(replay.answer);
    const message = await anthropicClient(relay.e2e).messages.create(question);
    expectSameAnswer(message, expectedFromCompletion(replay.answer.body));
  });
});
