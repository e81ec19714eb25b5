import type { StoredUsageLogEntry } from '../../src/storage/types';
import { readFixture } from '../testing/fixtures';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { readCassette, readStreamRecording } from './recorded-traffic';
import { usageRowsFor } from './usage-rows-for';
import { startRecordingUpstream, type CannedAnswer, type RawCall, type RecordingUpstream } from './recording-upstream';
import {
  expectCapturedSpecValid,
  expectSpecValid,
  expectStreamSpecValid,
  prepareResponsesSpec,
  PREPARE_SPEC_TIMEOUT_MS,
  rawCapture,
  responsesEventsOf,
  type ResponsesSseEvent,
} from './responses-spec-check';
import { sseDataOf } from './sse-events';

/** The caller's model name: none of the recordings' own, so every place it must appear is seen. */
const CALLER_MODEL = 'gpt-relay-replay';

const sse = (body: string): CannedAnswer => ({ contentType: 'text/event-stream', body });
const json = (body: string, status = 200): CannedAnswer => ({ contentType: 'application/json', body, status });

/** One recorded exchange: what the recorded client asked (when recorded) and the upstream's answer. */
interface Replay {
  name: string;
  request: Record<string, unknown>;
  answer: CannedAnswer;
}

const plainRequest = (stream: boolean): Record<string, unknown> => ({ model: CALLER_MODEL, input: 'Hello there', stream });

/** Every interaction of a Responses cassette, in order (a chain's later turns name the earlier responses). */
function cassetteReplays(name: string): Replay[] {
  return readCassette(`openai-responses/${name}`).map((exchange, index) => ({
    name: `${name} #${index}`,
    request: { ...(exchange.request ?? plainRequest(false)), model: CALLER_MODEL },
    answer: exchange.body.trimStart().startsWith('{') ? json(exchange.body, exchange.status) : sse(exchange.body),
  }));
}

/** A `.stream.jsonl` recording framed as OpenAI sends it (`event: <type>`), one replay per response it holds. */
function jsonlStreamReplays(name: string): Replay[] {
  const frames = readStreamRecording(`openai-responses/${name}`).split(/(?<=\n\n)/).filter((frame) => frame.trim() !== '');
  const streams: string[][] = [];
  for (const frame of frames) {
    if (frame.startsWith('event: response.created\n') || streams.length === 0) streams.push([]);
    streams.at(-1)?.push(frame);
  }
  return streams.map((stream, index) => ({ name: `${name} #${index}`, request: plainRequest(true), answer: sse(stream.join('')) }));
}

const recordedStreams: Replay[] = [
  ...['cassette-stream-text.yaml', 'cassette-stream-function-call-roundtrip.yaml', 'cassette-stream-function-call-roundtrip-2025-03.yaml'].flatMap(cassetteReplays),
  ...jsonlStreamReplays('stream-reasoning-summary-then-tool-calls.stream.jsonl'),
];

/** Non-streamed cassettes, each replayed whole and in order. */
const recordedConversations = [
  'cassette-text.yaml',
  'cassette-function-call-roundtrip.yaml',
  'cassette-previous-response-id-chain.yaml',
  'cassette-reasoning-encrypted-roundtrip.yaml',
  'cassette-reasoning-summary.yaml',
];

type Json = Record<string, unknown>;
interface RecordedUsage {
  input_tokens: number;
  output_tokens: number;
  input_tokens_details?: { cached_tokens?: number };
}

/** `text` with its first `"model": "<name>"` (the Response's own, top level) naming `model`: only those bytes may change. */
function withModel(text: string, model: string): string {
  const recorded = (JSON.parse(text) as { model: string }).model;
  const pattern = new RegExp(`("model"\\s*:\\s*)${JSON.stringify(recorded).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  expect(text).toMatch(pattern);
  return text.replace(pattern, `$1${JSON.stringify(model)}`);
}

/** One relay in front of a recording upstream, behind one `openai` channel serving {@link CALLER_MODEL} unmapped. */
function relayInFront(answerFor: (call: RawCall, chosen: CannedAnswer | undefined) => CannedAnswer) {
  const state: { e2e?: E2eRelay; upstream?: RecordingUpstream; answer?: CannedAnswer } = {};
  beforeAll(async () => {
    state.upstream = await startRecordingUpstream((call) => answerFor(call, state.answer));
    state.e2e = await startE2eRelay();
    await state.e2e.addChannel(state.upstream.baseUrl, { models: [CALLER_MODEL] });
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
    get calls(): RawCall[] {
      return state.upstream?.calls ?? [];
    },
  };
}

const postResponses = (e2e: E2eRelay, body: unknown): Promise<Response> =>
  fetch(`${e2e.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${e2e.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function usageRowFor(e2e: E2eRelay, requestId: string | null): Promise<StoredUsageLogEntry | undefined> {
  const [row] = await usageRowsFor(e2e, [requestId]);
  return row;
}

/** The usage row says what the recording says: prompt (cached part apart too) and completion tokens. */
function expectRecordedUsage(row: StoredUsageLogEntry | undefined, usage: RecordedUsage): void {
  expect({
    promptTokens: row?.promptTokens,
    completionTokens: row?.completionTokens,
    cacheReadTokens: row?.cacheReadTokens,
    usageEstimated: row?.usageEstimated,
  }).toEqual({
    promptTokens: usage.input_tokens,
    completionTokens: usage.output_tokens,
    cacheReadTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    usageEstimated: false,
  });
}

/** The lifecycle events carry a Response, whose `model` is the one thing the relay rewrites in a stream. */
const responseOf = (event: ResponsesSseEvent): Json | undefined => event.data['response'] as Json | undefined;

beforeAll(prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS);

describe('e2e: recorded Responses traffic through an openai channel’s passthrough reaches the caller as OpenAI sent it, under the caller’s model', () => {
  const relay = relayInFront((_call, chosen) => {
    if (!chosen) throw new Error('no answer chosen');
    return chosen;
  });

  it.each(recordedStreams.map((replay) => [replay.name, replay] as const))('stream %s', async (_name, replay) => {
    relay.serve(replay.answer);
    const response = await postResponses(relay.e2e, replay.request);
    expect(response.status).toBe(200);
    // The caller's own bytes went upstream (no mapping on this channel).
    expect(relay.calls.map((call) => [call.method, call.url, call.body.toString('utf8')])).toEqual([['POST', '/v1/responses', JSON.stringify(replay.request)]]);

    const received = responsesEventsOf(await response.text());
    const recorded = responsesEventsOf(replay.answer.body);
    expect(received.map((event) => event.event)).toEqual(recorded.map((event) => event.event));
    received.forEach((event, index) => {
      const original = recorded[index]!;
      const response = responseOf(original);
      if (!response) expect(event.text).toBe(original.text);
      else {
        expect(response['model']).not.toBe(CALLER_MODEL);
        expect(event.data).toEqual({ ...original.data, response: { ...response, model: CALLER_MODEL } });
      }
    });

    const terminal = responseOf(recorded.at(-1)!);
    expect(terminal?.['status']).toBe('completed');
    expectRecordedUsage(await usageRowFor(relay.e2e, response.headers.get('x-request-id')), terminal?.['usage'] as RecordedUsage);
  });

  it('the recorded streams with sequence numbers are valid per OpenAI’s description once relayed (read as OpenAI sends them)', async () => {
    const numbered = recordedStreams.filter((replay) => !replay.name.includes('2025-03'));
    for (const replay of numbered) {
      relay.serve(replay.answer);
      const response = await postResponses(relay.e2e, replay.request);
      expectStreamSpecValid(responsesEventsOf(await response.text()), { asOpenAiSends: true });
    }
  });

  it.each(recordedConversations)('conversation %s: every answer arrives byte for byte but its model, every usage row is the recorded usage', async (name) => {
    for (const replay of cassetteReplays(name)) {
      relay.serve(replay.answer);
      const response = await postResponses(relay.e2e, replay.request);
      const text = await response.text();
      expect({ replay: replay.name, status: response.status }).toEqual({ replay: replay.name, status: 200 });
      expect(relay.calls.map((call) => call.body.toString('utf8'))).toEqual([JSON.stringify(replay.request)]);
      expect(text).toBe(withModel(replay.answer.body, CALLER_MODEL));
      const recorded = JSON.parse(replay.answer.body) as Json;
      expect(JSON.parse(text)).toEqual({ ...recorded, model: CALLER_MODEL });
      expectSpecValid('Response', JSON.parse(text), { asOpenAiSends: true });
      expectRecordedUsage(await usageRowFor(relay.e2e, response.headers.get('x-request-id')), recorded['usage'] as RecordedUsage);
    }
  });

  it('the recorded 400 (temperature -1, asked streamed): OpenAI’s 400 JSON with its type, param and code, no stream', async () => {
    const [replay] = cassetteReplays('cassette-error-400-invalid-value.yaml');
    relay.serve(replay!.answer);
    const response = await postResponses(relay.e2e, replay!.request);
    const recorded = JSON.parse(replay!.answer.body) as { error: Json };
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { error: Json };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'temperature', code: recorded.error['code'] });
    expectSpecValid('ErrorResponse', body);
  });

  it('a recorded 400 for an unsupported parameter: its message, type and param as OpenAI sent them, code null', async () => {
    const recorded = readFixture('openai-responses/error-400-unsupported-parameter-temperature.json');
    relay.serve(json(recorded, 400));
    const response = await postResponses(relay.e2e, { model: CALLER_MODEL, input: 'Hello there', temperature: 0.5 });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: Json };
    expect(body).toEqual(JSON.parse(recorded));
    expectSpecValid('ErrorResponse', body);
  });

  it('the recorded insufficient_quota stream: created and in_progress as sent, then it ends with an error event carrying the code', async () => {
    const [replay] = jsonlStreamReplays('stream-error-insufficient-quota.stream.jsonl');
    relay.serve(replay!.answer);
    const response = await postResponses(relay.e2e, replay!.request);
    expect(response.status).toBe(200);
    const received = responsesEventsOf(await response.text());
    const recorded = responsesEventsOf(replay!.answer.body);
    expect(recorded.map((event) => event.event)).toEqual(['response.created', 'response.in_progress', 'error', 'response.failed']);

    expect(received.slice(0, 2).map((event) => event.event)).toEqual(['response.created', 'response.in_progress']);
    const last = received.at(-1)!;
    expect(last.event).toBe('error');
    expect(last.data).toMatchObject({ type: 'error', code: 'insufficient_quota', message: expect.stringContaining('You exceeded your current quota') });
    expect(last.data.sequence_number).toBeGreaterThan(received[1]!.data.sequence_number);
    expectStreamSpecValid(received.slice(-1));

    // Nothing was generated: the prompt is counted by the relay, the row carries the upstream's code.
    const row = await usageRowFor(relay.e2e, response.headers.get('x-request-id'));
    expect(row).toMatchObject({ errorCode: 'insufficient_quota', completionTokens: 0, usageEstimated: true });
    expect(row?.promptTokens).toBeGreaterThan(0);
  });
});

/** What a recorded Chat Completions stream says, read from its chunks without the relay's code. */
interface ExpectedAnswer {
  text: string;
  refusal: string;
  calls: Array<{ name: string; arguments: string }>;
  finishReason: string;
  outputTokens: number | undefined;
}

interface ChatChunk {
  choices?: Array<{
    index: number;
    delta?: { content?: string | null; refusal?: string | null; tool_calls?: Array<{ index: number; function?: { name?: string; arguments?: string } }> };
    finish_reason?: string | null;
  }>;
  usage?: { completion_tokens?: number } | null;
}

function expectedFromChatStream(text: string): ExpectedAnswer {
  const chunks = sseDataOf(text)
    .filter((data) => data !== '[DONE]')
    .map((data) => JSON.parse(data) as ChatChunk);
  const expected: ExpectedAnswer = { text: '', refusal: '', calls: [], finishReason: 'stop', outputTokens: undefined };
  const calls = new Map<number, { name: string; arguments: string }>();
  for (const chunk of chunks) {
    if (typeof chunk.usage?.completion_tokens === 'number') expected.outputTokens = chunk.usage.completion_tokens;
    const choice = chunk.choices?.find((candidate) => candidate.index === 0);
    expected.text += choice?.delta?.content ?? '';
    expected.refusal += choice?.delta?.refusal ?? '';
    for (const call of choice?.delta?.tool_calls ?? []) {
      const entry = calls.get(call.index) ?? { name: '', arguments: '' };
      entry.name = call.function?.name || entry.name;
      entry.arguments += call.function?.arguments ?? '';
      calls.set(call.index, entry);
    }
    if (choice?.finish_reason) expected.finishReason = choice.finish_reason;
  }
  expected.calls = [...calls.entries()].sort(([left], [right]) => left - right).map(([, call]) => call);
  return expected;
}

const chatStreams: Array<{ name: string; body: string }> = [
  ...[
    'openai/chat-stream-text.sse',
    'openai/chat-stream-tool-call.sse',
    'openai/chat-stream-parallel-tool-calls.sse',
    'openai/chat-stream-finish-length.sse',
    'openai/chat-stream-logprobs.sse',
    'openai/chat-stream-refusal.sse',
    'openai/chat-stream-n3-choices.sse',
    'openai/chat-completion-text.stream.jsonl',
  ].map((name) => ({ name, body: readStreamRecording(name) })),
  ...readCassette('openai/cassette-chat-stream-tool-roundtrip.yaml')
    .filter((exchange) => !exchange.body.trimStart().startsWith('{'))
    .map((exchange, index) => ({ name: `openai/cassette-chat-stream-tool-roundtrip.yaml #${index}`, body: exchange.body })),
];

/** What an OpenAI-compatible server without the Responses API answers there. */
const noResponsesApi = json(JSON.stringify({ error: { message: 'Invalid URL (POST /v1/responses)', type: 'invalid_request_error', param: null, code: null } }), 404);

describe('e2e: recorded Chat Completions streams from a chat-only channel reach the openai SDK’s Responses stream, bridged', () => {
  const relay = relayInFront((call, chosen) => {
    if (call.url.startsWith('/v1/responses')) return noResponsesApi;
    if (!chosen) throw new Error('no answer chosen');
    return chosen;
  });

  it.each(chatStreams.map((replay) => [replay.name, replay] as const))('stream %s', async (_name, replay) => {
    relay.serve(sse(replay.body));
    const capture = rawCapture();
    const client = relay.e2e.client({ fetch: capture.fetch });
    const stream = client.responses.stream({ model: CALLER_MODEL, input: 'Hello there' });
    const types: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    const final = await stream.finalResponse();

    // The upstream was asked for a chat completion (after answering 404 on /responses once, on the first test).
    expect(relay.calls.at(-1)?.url).toBe('/v1/chat/completions');
    expect(JSON.parse(relay.calls.at(-1)?.body.toString('utf8') ?? '{}')).toMatchObject({ model: CALLER_MODEL, stream: true });

    const expected = expectedFromChatStream(replay.body);
    expect(final.model).toBe(CALLER_MODEL);
    expect(final.output_text).toBe(expected.text);
    const calls = final.output.flatMap((item) => (item.type === 'function_call' ? [{ name: item.name, arguments: item.arguments }] : []));
    expect(calls).toEqual(expected.calls);
    const refusals = final.output.flatMap((item) => (item.type === 'message' ? item.content.flatMap((part) => (part.type === 'refusal' ? [part.refusal] : [])) : []));
    expect(refusals.join('')).toBe(expected.refusal);
    if (expected.finishReason === 'length') expect(final).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    else expect(final.status).toBe('completed');
    if (expected.outputTokens !== undefined) expect(final.usage?.output_tokens).toBe(expected.outputTokens);

    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe(expected.finishReason === 'length' ? 'response.incomplete' : 'response.completed');
    expect(await expectCapturedSpecValid(capture)).toBe(1);
  });
});
