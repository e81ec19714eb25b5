import { argumentsJsonFromSchema } from '@chat-relay/upstream-sim';
import OpenAI, { NotFoundError } from 'openai';
import { zodTextFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import type { StoredUsageLogEntry } from '../../src/storage/types';
import { RESPONSES_MODEL, responsesChannelKinds, startResponsesRelay, type ResponsesE2e } from './responses-e2e';
import { usageRowsFor } from './usage-rows-for';
import { expectCapturedSpecValid, prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS, rawCapture, type RawCapture } from './responses-spec-check';

type StreamEvent = OpenAI.Responses.ResponseStreamEvent;
type FunctionCall = OpenAI.Responses.ResponseFunctionToolCall;

const weatherTool: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather in a city',
  strict: false,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
/** The simulator calls every tool whose name's words all appear in the user's text. */
const askWeather = 'Please get weather for Paris.';
/** The arguments the simulator builds from the tool's schema, on every channel alike. */
const expectedArguments = argumentsJsonFromSchema(weatherTool.parameters ?? {});
const weatherResult = JSON.stringify({ city: 'Paris', sky: 'sunny' });

const callsOf = (response: OpenAI.Responses.Response): FunctionCall[] =>
  response.output.filter((item): item is FunctionCall => item.type === 'function_call');

/** The usage rows of these requests, each of them there. */
async function rowsOf(e2e: ResponsesE2e, requestIds: readonly (string | null | undefined)[]): Promise<StoredUsageLogEntry[]> {
  const rows = await usageRowsFor(e2e, requestIds);
  expect(rows.map((row) => row?.requestId)).toEqual(requestIds);
  return rows as StoredUsageLogEntry[];
}

/** Each item's `output_item.added` comes before any event naming that item. */
function expectItemsAddedBeforeTheirEvents(events: readonly StreamEvent[]): void {
  const added = new Set<string>();
  const early: string[] = [];
  for (const event of events) {
    if (event.type === 'response.output_item.added' && event.item.id) added.add(event.item.id);
    if ('item_id' in event && !added.has(event.item_id)) early.push(`${event.sequence_number} ${event.type} ${event.item_id}`);
  }
  expect(early).toEqual([]);
}

/** The concatenated deltas of each item, text and arguments alike. */
function deltasByItem(events: readonly StreamEvent[]): Map<string, string> {
  const deltas = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'response.output_text.delta' || event.type === 'response.function_call_arguments.delta') {
      deltas.set(event.item_id, (deltas.get(event.item_id) ?? '') + event.delta);
    }
  }
  return deltas;
}

/**
 * The official `openai` SDK's Responses API against the relay (issue 13), on every kind of
 * channel a Responses request can reach: passed through to a native Responses upstream, or
 * bridged through Chat Completions to a chat-only OpenAI server, Anthropic or Gemini. Every raw
 * answer the SDK reads is checked against OpenAI's published description.
 */
beforeAll(prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS);

describe.each(responsesChannelKinds)('e2e: the openai SDK’s Responses API on a $name channel', (kind) => {
  let e2e: ResponsesE2e;
  let capture: RawCapture;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startResponsesRelay(kind);
    capture = rawCapture();
    client = e2e.client({ fetch: capture.fetch });
  });
  afterEach(() => e2e.close());

  /** Every raw answer so far is valid per OpenAI's description (OpenAI's own nulls allowed only when passed through). */
  const expectAllSpecValid = async (count: number) => {
    expect(await expectCapturedSpecValid(capture, { asOpenAiSends: kind.native })).toBe(count);
  };

  it('a text answer, non-streamed: a resp_ Response under the caller’s name with output_text and usage; one upstream call with the mapped model; one usage row', async () => {
    const response = await client.responses.create({ model: RESPONSES_MODEL, input: 'Hello there' });

    expect(response).toMatchObject({ object: 'response', status: 'completed', model: RESPONSES_MODEL, error: null });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text).toBe('You said: Hello there');
    expect(response.output).toEqual([
      expect.objectContaining({ type: 'message', role: 'assistant', status: 'completed', content: [expect.objectContaining({ type: 'output_text', text: 'You said: Hello there' })] }),
    ]);
    expect(response.usage?.input_tokens).toBeGreaterThan(0);
    expect(response.usage?.output_tokens).toBeGreaterThan(0);
    expect(response.usage?.total_tokens).toBe((response.usage?.input_tokens ?? 0) + (response.usage?.output_tokens ?? 0));

    const calls = kind.calls(e2e.sim);
    expect(calls).toHaveLength(1);
    if (kind.type !== 'gemini') expect((calls[0]?.body as { model: string }).model).toBe(kind.upstreamModel);
    // Only the native channel is asked on /v1/responses; the chat-only one once, to learn it has none.
    const asked = e2e.sim.requests.filter((request) => request.path.endsWith('/v1/responses'));
    expect(asked.map((request) => request.path)).toEqual(
      kind.native ? ['/v1/responses'] : kind.name === 'openai-chat-only' ? ['/chat-only/v1/responses'] : [],
    );

    const [row] = await rowsOf(e2e, [response._request_id]);
    expect(row).toMatchObject({ channelId: e2e.channel.id, requestedModel: RESPONSES_MODEL, upstreamModel: kind.upstreamModel, status: 200, stream: false });
    expect(row?.promptTokens).toBe(response.usage?.input_tokens);
    expect(row?.completionTokens).toBe(response.usage?.output_tokens);
    await expectAllSpecValid(1);
  });

  it('a function tool, streamed: sequence numbers rise from 0, one response id, each item added before its deltas, the completed output holds the call with the concatenated arguments', async () => {
    const { data: stream, request_id: requestId } = await client.responses
      .create({ model: RESPONSES_MODEL, input: `${askWeather} [sim:preamble=on]`, tools: [weatherTool], stream: true })
      .withResponse();
    const events: StreamEvent[] = [];
    for await (const event of stream) events.push(event);

    const numbers = events.map((event) => event.sequence_number);
    expect(numbers[0]).toBe(0);
    expect(numbers.every((number, index) => index === 0 || number > (numbers[index - 1] ?? Infinity))).toBe(true);

    expect(events[0]?.type).toBe('response.created');
    expect(events.at(-1)?.type).toBe('response.completed');
    const lifecycle = events.filter((event) => 'response' in event).map((event) => ('response' in event ? event.response.id : ''));
    expect(new Set(lifecycle).size).toBe(1);
    expect(lifecycle[0]).toMatch(/^resp_/);
    expect(events.filter((event) => event.type === 'response.created')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'response.completed')).toHaveLength(1);

    expectItemsAddedBeforeTheirEvents(events);
    const deltas = deltasByItem(events);
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.model).toBe(RESPONSES_MODEL);
    // The preamble's text, then the call: both items streamed, each with its own deltas.
    expect(completed.response.output.map((item) => item.type)).toEqual(['message', 'function_call']);
    const [call] = callsOf(completed.response);
    expect(call).toMatchObject({ name: 'get_weather', arguments: expectedArguments, status: 'completed' });
    expect(deltas.get(call?.id ?? '')).toBe(call?.arguments);
    const message = completed.response.output[0] as OpenAI.Responses.ResponseOutputMessage;
    expect(deltas.get(message.id)).toBe(message.content.map((part) => (part.type === 'output_text' ? part.text : '')).join(''));
    expect(deltas.get(message.id)).not.toBe('');
    // Every item that was added is done, once.
    const ids = (type: string) => events.flatMap((event) => (event.type === type && 'item' in event ? [event.item.id] : []));
    expect(ids('response.output_item.done')).toEqual(ids('response.output_item.added'));

    const [row] = await rowsOf(e2e, [requestId]);
    expect(row).toMatchObject({ channelId: e2e.channel.id, upstreamModel: kind.upstreamModel, status: 200, stream: true });
    expect(row?.promptTokens).toBe(completed.response.usage?.input_tokens);
    expect(row?.completionTokens).toBe(completed.response.usage?.output_tokens);
    expect(row?.completionTokens).toBeGreaterThan(0);
    await expectAllSpecValid(1);
  });

  it('client.responses.stream(): typed delta events as they come, finalResponse() is the completed response', async () => {
    const stream = client.responses.stream({ model: RESPONSES_MODEL, input: askWeather, tools: [weatherTool] });
    const argumentDeltas: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    stream.on('response.function_call_arguments.delta', (event) => argumentDeltas.push(event.delta));
    stream.on('response.completed', (event) => (completed = event.response));
    const final = await stream.finalResponse();

    expect(final.id).toBe(completed?.id);
    expect(final.model).toBe(RESPONSES_MODEL);
    // The helper adds `parsed_arguments` (null: the tool is not a parseable one); the rest is the event's.
    expect(final.output.map((item) => ({ ...item, parsed_arguments: undefined }))).toEqual(completed?.output.map((item) => ({ ...item, parsed_arguments: undefined })));
    expect(callsOf(final)).toEqual([expect.objectContaining({ name: 'get_weather', arguments: expectedArguments })]);
    expect(argumentDeltas.join('')).toBe(expectedArguments);
    expect(final.usage?.output_tokens).toBeGreaterThan(0);
    await expectAllSpecValid(1);
  });

  it('the tool loop, stateless (store: false): the call’s items and its output sent back in input → a text answer; nothing kept to retrieve', async () => {
    const question: OpenAI.Responses.ResponseInputItem = { role: 'user', content: askWeather };
    const first = await client.responses.create({ model: RESPONSES_MODEL, store: false, input: [question], tools: [weatherTool] });
    const [call] = callsOf(first);
    expect(call).toMatchObject({ name: 'get_weather', arguments: expectedArguments });

    const second = await client.responses.create({
      model: RESPONSES_MODEL,
      store: false,
      tools: [weatherTool],
      input: [question, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call!.call_id, output: weatherResult }],
    });
    expect(second).toMatchObject({ status: 'completed', store: false, previous_response_id: null });
    expect(callsOf(second)).toEqual([]);
    expect(second.output_text).toBe(`Here is what I found: get_weather: ${weatherResult}.`);

    // The upstream saw the whole conversation each time, and no server-side state.
    const lastCall = JSON.stringify(kind.calls(e2e.sim).at(-1)?.body);
    expect(lastCall).toContain('Please get weather for Paris.');
    expect(lastCall).toContain('sunny');
    await expect(client.responses.retrieve(first.id)).rejects.toBeInstanceOf(NotFoundError);

    const rows = await rowsOf(e2e, [first._request_id, second._request_id]);
    for (const row of rows) {
      expect(row).toMatchObject({ channelId: e2e.channel.id, status: 200 });
      expect(row.promptTokens).toBeGreaterThan(0);
      expect(row.completionTokens).toBeGreaterThan(0);
    }
    await expectAllSpecValid(3);
  });

  it('the tool loop, stateful: previous_response_id and only the function_call_output → a text answer', async () => {
    const first = await client.responses.create({ model: RESPONSES_MODEL, input: askWeather, tools: [weatherTool] });
    const [call] = callsOf(first);
    expect(call?.name).toBe('get_weather');

    const second = await client.responses.create({
      model: RESPONSES_MODEL,
      previous_response_id: first.id,
      tools: [weatherTool],
      input: [{ type: 'function_call_output', call_id: call!.call_id, output: weatherResult }],
    });
    expect(second).toMatchObject({ status: 'completed', previous_response_id: first.id, model: RESPONSES_MODEL });
    expect(second.id).not.toBe(first.id);
    expect(second.output_text).toBe(`Here is what I found: get_weather: ${weatherResult}.`);

    const lastCall = kind.calls(e2e.sim).at(-1)?.body as Record<string, unknown>;
    if (kind.native) {
      // The channel keeps the conversation: the relay sends what the caller sent.
      expect(lastCall).toMatchObject({ model: kind.upstreamModel, previous_response_id: first.id });
      expect(JSON.stringify(lastCall)).not.toContain('Please get weather for Paris.');
    } else {
      // The relay keeps it, and replays the question and the call to a stateless upstream.
      expect(JSON.stringify(lastCall)).toContain('Please get weather for Paris.');
      expect(JSON.stringify(lastCall)).toContain('get_weather');
    }
    if (kind.name === 'openai-chat-only') {
      expect(e2e.sim.requests.filter((request) => request.path === '/chat-only/v1/responses')).toHaveLength(1);
    }
    // What the second response was asked with: the output alone, listed with an id.
    const items = await client.responses.inputItems.list(second.id);
    expect(items.data).toEqual([expect.objectContaining({ type: 'function_call_output', call_id: call!.call_id, output: weatherResult, id: expect.any(String) })]);

    const rows = await rowsOf(e2e, [first._request_id, second._request_id]);
    expect(rows.map((row) => row.channelId)).toEqual([e2e.channel.id, e2e.channel.id]);
    for (const row of rows) expect(row.promptTokens).toBeGreaterThan(0);
    await expectAllSpecValid(3);
  });

  it('retrieve answers what create answered; input items are listed with ids, newest first by default, oldest first with order asc, paged by limit', async () => {
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'developer', content: 'Answer briefly.' },
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'First answer' },
      { role: 'user', content: 'Second question' },
    ];
    const created = await client.responses.create({ model: RESPONSES_MODEL, input });
    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved).toMatchObject({ id: created.id, model: RESPONSES_MODEL, status: 'completed' });
    expect(retrieved.output).toEqual(created.output);
    expect(retrieved.usage).toEqual(created.usage);
    expect(retrieved.output_text).toBe('You said: Second question');

    const textOf = (item: OpenAI.Responses.ResponseItem) =>
      item.type === 'message' ? item.content.map((part) => ('text' in part ? part.text : '')).join('') : `<${item.type}>`;
    const newestFirst = await client.responses.inputItems.list(created.id);
    expect(newestFirst.data.map(textOf)).toEqual(['Second question', 'First answer', 'First question', 'Answer briefly.']);
    expect(newestFirst.data.map((item) => (item.type === 'message' ? item.role : ''))).toEqual(['user', 'assistant', 'user', 'developer']);
    for (const item of newestFirst.data) expect(item.id).toEqual(expect.any(String));
    expect(new Set(newestFirst.data.map((item) => item.id)).size).toBe(4);
    expect(newestFirst.has_more).toBe(false);

    const oldestFirst = await client.responses.inputItems.list(created.id, { order: 'asc' });
    expect(oldestFirst.data.map((item) => item.id)).toEqual(newestFirst.data.map((item) => item.id).reverse());

    const firstPage = await client.responses.inputItems.list(created.id, { order: 'asc', limit: 3 });
    expect(firstPage.data.map(textOf)).toEqual(['Answer briefly.', 'First question', 'First answer']);
    expect(firstPage.has_more).toBe(true);
    // The SDK pages on with `after` = the last id it read.
    const all: string[] = [];
    for await (const item of client.responses.inputItems.list(created.id, { order: 'asc', limit: 1 })) all.push(textOf(item));
    expect(all).toEqual(['Answer briefly.', 'First question', 'First answer', 'Second question']);
    // create, retrieve, three lists, and four pages of one.
    await expectAllSpecValid(9);
  });

  it('delete, then retrieve and input_items: 404 NotFoundError, response_not_found', async () => {
    const created = await client.responses.create({ model: RESPONSES_MODEL, input: 'Remember nothing' });
    const deleted = await client.responses.delete(created.id);
    // The SDK types a deletion as void; the body is OpenAI's.
    expect(deleted).toEqual({ id: created.id, object: 'response', deleted: true });

    const gone = await client.responses.retrieve(created.id).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(NotFoundError);
    expect((gone as NotFoundError).status).toBe(404);
    expect((gone as NotFoundError).error).toMatchObject({ type: 'invalid_request_error', code: 'response_not_found' });
    await expect(client.responses.inputItems.list(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.responses.create({ model: RESPONSES_MODEL, previous_response_id: created.id, input: 'And then?' })).rejects.toBeInstanceOf(NotFoundError);
    await expectAllSpecValid(5);
  });

  it('responses.parse with zodTextFormat: output_parsed typed and valid against the zod schema', async () => {
    const Forecast = z.object({ city: z.string(), days: z.number().int(), unit: z.enum(['celsius', 'fahrenheit']) });
    const response = await client.responses.parse({
      model: RESPONSES_MODEL,
      input: 'Plan a forecast',
      text: { format: zodTextFormat(Forecast, 'forecast') },
    });
    const parsed: z.infer<typeof Forecast> | null = response.output_parsed;
    expect(Forecast.parse(parsed)).toEqual(parsed);
    expect(parsed?.unit).toBe('celsius');
    expect(JSON.parse(response.output_text)).toEqual(parsed);
    expect(response.text?.format).toMatchObject({ type: 'json_schema', name: 'forecast' });

    const [row] = await rowsOf(e2e, [response._request_id]);
    expect(row).toMatchObject({ channelId: e2e.channel.id, status: 200 });
    expect(row?.completionTokens).toBeGreaterThan(0);
    await expectAllSpecValid(1);
  });
});
