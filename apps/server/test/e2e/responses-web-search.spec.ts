import { DEFAULT_SEARCH_MODEL, type Channel } from '@chat-relay/contract';
import Database from 'better-sqlite3';
import path from 'node:path';
import type OpenAI from 'openai';
import { SQLITE_FILE_NAME } from '../../src/storage/sqlite/open-sqlite';
import type { StoredUsageLogEntry } from '../../src/storage/types';
import { SIM_KEY } from './e2e-relay';
import { RESPONSES_MODEL, responsesChannelKinds, startResponsesRelay, type ResponsesChannelKind, type ResponsesE2e } from './responses-e2e';
import { expectCapturedSpecValid, prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS, rawCapture } from './responses-spec-check';
import { usageRowsFor } from './usage-rows-for';

/**
 * SPEC §7a: OpenAI's hosted `web_search` tool on channels without a Responses API. The relay runs
 * one search through a search channel (the simulator's Tavily) before the model is asked, gives
 * the model the results, and answers a `web_search_call` item before the message — with the
 * official `openai` package, streamed and not; the search has its own usage row.
 */

type Json = Record<string, unknown>;
type Response = OpenAI.Responses.Response;
type WebSearchCall = OpenAI.Responses.ResponseFunctionWebSearch;
type StreamEvent = OpenAI.Responses.ResponseStreamEvent;

const QUESTION = 'what changed in rust 1.80';
const BAD_KEY = 'tvly-revoked-0123456789abcdef';
const bridgedKinds = responsesChannelKinds.filter((kind) => !kind.native);

/** The texts of a request the model got, whatever the channel's format: instructions first, then turns. */
function promptTextOf(kind: ResponsesChannelKind, body: Json): { system: string; turns: string[] } {
  const textOf = (content: unknown): string =>
    typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: Json) => (typeof part['text'] === 'string' ? part['text'] : '')).join('') : '';
  if (kind.type === 'gemini') {
    const system = body['systemInstruction'] as { parts: unknown } | undefined;
    const contents = body['contents'] as Array<{ parts: unknown }>;
    return { system: system ? textOf(system.parts) : '', turns: contents.map((content) => textOf(content.parts)) };
  }
  const messages = body['messages'] as Array<{ role: string; content: unknown }>;
  if (kind.type === 'anthropic') return { system: textOf(body['system']), turns: messages.map((message) => textOf(message.content)) };
  return {
    system: messages.filter((message) => message.role === 'system').map((message) => textOf(message.content)).join('\n'),
    turns: messages.filter((message) => message.role !== 'system').map((message) => textOf(message.content)),
  };
}

const webSearchOf = (response: Response): WebSearchCall => {
  const item = response.output[0];
  if (item?.type !== 'web_search_call') throw new Error(`the first output item is ${item?.type}`);
  return item;
};
const sourcesOf = (call: WebSearchCall): string[] => (call.action.type === 'search' ? (call.action.sources ?? []).map((source) => source.url) : []);

describe.each(bridgedKinds)('e2e: the hosted web_search tool, bridged ($name)', (kind) => {
  let e2e: ResponsesE2e;
  let tavily: Channel;
  const tavilyCalls = () => e2e.sim.requests.filter((request) => request.path === '/search');
  const modelCall = () => (kind.calls(e2e.sim).at(-1)?.body ?? {}) as Json;

  beforeAll(prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS);
  beforeEach(async () => {
    e2e = await startResponsesRelay(kind);
    tavily = await e2e.addChannel(e2e.sim.origin, { name: 'tavily', type: 'tavily', models: [DEFAULT_SEARCH_MODEL], keys: [SIM_KEY] });
  });
  afterEach(() => e2e.close());

  /** The response's row and its search's, in that order. */
  async function rowsOf(requestId: string): Promise<StoredUsageLogEntry[]> {
    const rows = await usageRowsFor(e2e, [requestId, `${requestId}-search`]);
    expect(rows.map((row) => row?.requestId)).toEqual([requestId, `${requestId}-search`]);
    return rows as StoredUsageLogEntry[];
  }

  it('not streamed: one search of the question, its results given to the model, the web_search_call before the message, two rows', async () => {
    const capture = rawCapture();
    const client = e2e.client({ fetch: capture.fetch });
    const { data: response, response: http } = await client.responses.create({ model: RESPONSES_MODEL, input: QUESTION, tools: [{ type: 'web_search' }] }).withResponse();

    expect(response.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    const call = webSearchOf(response);
    expect(call).toMatchObject({ id: expect.stringMatching(/^ws_/), status: 'completed', action: { type: 'search', query: QUESTION } });
    const sources = sourcesOf(call);
    expect(sources).toHaveLength(5);
    expect(response.output_text).not.toBe('');

    expect(tavilyCalls().map((request) => request.body)).toEqual([{ query: QUESTION, max_results: 5, topic: 'general', search_depth: 'basic', include_answer: false }]);
    // The model got the sources — each URL, numbered — and no tool it cannot run.
    const prompt = promptTextOf(kind, modelCall());
    expect(prompt.system).toContain(`Web search results for "${QUESTION}"`);
    const blocks = prompt.system.split('\n\n');
    for (const [index, url] of sources.entries()) expect(blocks.find((block) => block.startsWith(`[${index + 1}] `))).toContain(`\nURL: ${url}`);
    expect(prompt.system).toMatch(/cite each source you use by its URL/);
    expect(prompt.turns).toEqual([QUESTION]);
    expect(modelCall()['tools']).toBeUndefined();

    const [own, search] = await rowsOf(http.headers.get('x-request-id') ?? '');
    expect(own).toMatchObject({ endpoint: 'chat', status: 200, requestedModel: RESPONSES_MODEL, units: 0 });
    expect(search).toMatchObject({ endpoint: 'search', status: 200, units: 1, requestedModel: DEFAULT_SEARCH_MODEL, channelId: tavily.id, attempts: 1, promptTokens: 0, completionTokens: 0 });

    // Stored as answered: retrieval shows the search too.
    expect((await client.responses.retrieve(response.id)).output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    expect(await expectCapturedSpecValid(capture)).toBe(2);
  });

  it('streamed: OpenAI’s web search events, then the message at output_index 1, every event as the SDK types it', async () => {
    const capture = rawCapture();
    const client = e2e.client({ fetch: capture.fetch });
    const { data: stream, response: http } = await client.responses.create({ model: RESPONSES_MODEL, input: QUESTION, tools: [{ type: 'web_search_preview' }], stream: true }).withResponse();
    const events: StreamEvent[] = [];
    for await (const event of stream) events.push(event);

    expect(events.slice(0, 7).map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
      'response.output_item.done',
    ]);
    const added = events[2];
    expect(added?.type === 'response.output_item.added' ? added.item : undefined).toMatchObject({ type: 'web_search_call', status: 'in_progress' });
    const firstOfMessage = events.find((event) => event.type === 'response.output_item.added' && event.item.type === 'message');
    expect(firstOfMessage && 'output_index' in firstOfMessage ? firstOfMessage.output_index : undefined).toBe(1);
    const final = events.at(-1);
    if (final?.type !== 'response.completed') throw new Error(`the stream ended with ${final?.type}`);
    expect(final.response.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    expect(sourcesOf(webSearchOf(final.response))).toHaveLength(5);
    expect(promptTextOf(kind, modelCall()).system).toContain(`URL: ${sourcesOf(webSearchOf(final.response))[0]}`);

    const [own, search] = await rowsOf(http.headers.get('x-request-id') ?? '');
    expect(own).toMatchObject({ endpoint: 'chat', status: 200, stream: true });
    expect(search).toMatchObject({ endpoint: 'search', status: 200, units: 1, stream: false });
    expect(await expectCapturedSpecValid(capture)).toBe(1);
  });
});

describe('e2e: the hosted web_search tool on a chat-only OpenAI channel', () => {
  const kind = bridgedKinds.find((candidate) => candidate.name === 'openai-chat-only');
  if (!kind) throw new Error('no chat-only kind');
  let e2e: ResponsesE2e;
  const tavilyCalls = () => e2e.sim.requests.filter((request) => request.path === '/search');
  const modelCalls = () => kind.calls(e2e.sim).map((request) => request.body as Json);

  beforeAll(prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS);
  afterEach(() => e2e.close());

  it('search_context_size and filters.allowed_domains become the result count and the domains searched; function tools stay', async () => {
    e2e = await startResponsesRelay(kind, { responses_api: 'bridged' });
    await e2e.addChannel(e2e.sim.origin, { type: 'tavily', models: [DEFAULT_SEARCH_MODEL], keys: [SIM_KEY] });
    const weather: OpenAI.Responses.FunctionTool = { type: 'function', name: 'get_forecast', parameters: { type: 'object', properties: {} }, strict: false };
    const response = await e2e.client().responses.create({
      model: RESPONSES_MODEL,
      input: QUESTION,
      tools: [weather, { type: 'web_search', search_context_size: 'low', filters: { allowed_domains: ['example.org', 'https://en.wikipedia.org/wiki'] } }],
    });
    expect(tavilyCalls()[0]?.body).toMatchObject({ max_results: 3, include_domains: ['example.org', 'en.wikipedia.org'] });
    const sources = sourcesOf(webSearchOf(response));
    expect(sources).toHaveLength(3);
    for (const url of sources) expect(new URL(url).hostname).toMatch(/(^|\.)example\.org$|^en\.wikipedia\.org$/);
    expect((modelCalls()[0]?.['tools'] as Json[]).map((tool) => (tool['function'] as Json)['name'])).toEqual(['get_forecast']);
    // The chat-only channel was never asked for /responses: it is bridged.
    expect(e2e.sim.requests.filter((request) => request.path.endsWith('/responses'))).toEqual([]);
  });

  it('a refused search key: the model answers without results, told so; the item says failed; the key is disabled; the search row says why', async () => {
    e2e = await startResponsesRelay(kind);
    const tavily = await e2e.addChannel(e2e.sim.origin, { type: 'tavily', models: [DEFAULT_SEARCH_MODEL], keys: [BAD_KEY] });
    const { data: response, response: http } = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: QUESTION, tools: [{ type: 'web_search' }] }).withResponse();
    expect(response.status).toBe('completed');
    expect(response.output.map((item) => [item.type, 'status' in item ? item.status : undefined])).toEqual([
      ['web_search_call', 'failed'],
      ['message', 'completed'],
    ]);
    const system = (modelCalls()[0]?.['messages'] as Array<{ role: string; content: string }>).find((message) => message.role === 'system');
    expect(system?.content).toMatch(/web search was attempted .* failed/);
    expect(JSON.stringify(response)).not.toContain(BAD_KEY);

    const requestId = http.headers.get('x-request-id') ?? '';
    const [own, search] = await usageRowsFor(e2e, [requestId, `${requestId}-search`]);
    expect(own).toMatchObject({ endpoint: 'chat', status: 200 });
    expect(search).toMatchObject({ endpoint: 'search', status: 502, errorCode: 'upstream_auth_failed', units: 0, channelId: tavily.id });
    const shown = (await (await fetch(`${e2e.url}/api/channels/${tavily.id}`, { headers: { authorization: `Bearer ${e2e.relay.adminKey}` } })).json()) as Channel;
    expect(shown.key_status.map((key) => key.status)).toEqual(['disabled']);
  });

  it('the quota: both rows charged and settled — nothing left reserved — and quota_used is their sum', async () => {
    e2e = await startResponsesRelay(kind);
    await e2e.addChannel(e2e.sim.origin, { type: 'tavily', models: [DEFAULT_SEARCH_MODEL], keys: [SIM_KEY] });
    const admin = { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' };
    const priced = await fetch(`${e2e.url}/api/prices`, { method: 'PUT', headers: admin, body: JSON.stringify({ data: [{ model: RESPONSES_MODEL, input: 2_000_000, output: 8_000_000 }, { model: DEFAULT_SEARCH_MODEL, input: 0, output: 0, search_query: 8_000 }] }) });
    expect(priced.status).toBe(200);
    await e2e.relay.storage.tokens.update(e2e.tokenId, { quotaLimit: 50_000_000, quotaUsed: 0 });

    const { response: http } = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: QUESTION, tools: [{ type: 'web_search' }] }).withResponse();
    const requestId = http.headers.get('x-request-id') ?? '';
    const rows = await usageRowsFor(e2e, [requestId, `${requestId}-search`]);
    expect(rows.map((row) => row?.endpoint)).toEqual(['chat', 'search']);
    const costs = rows.map((row) => row?.cost ?? Number.NaN);
    expect(costs[0]).toBeGreaterThan(0);
    // The search is one query at its own price.
    expect(rows[1]).toMatchObject({ units: 1, cost: 8_000 });
    const token = await e2e.relay.storage.tokens.get(e2e.tokenId);
    expect(token?.quotaUsed).toBe(costs.reduce((sum, cost) => sum + cost, 0));
    const db = new Database(path.join(e2e.relay.dataDir, SQLITE_FILE_NAME), { readonly: true, fileMustExist: true });
    try {
      expect((db.prepare('SELECT COUNT(*) AS n FROM quota_reservations').get() as { n: number }).n).toBe(0);
    } finally {
      db.close();
    }
  });

  it('a second turn by previous_response_id: the stored web_search_call is left out, the earlier answer kept, a new search made', async () => {
    e2e = await startResponsesRelay(kind);
    await e2e.addChannel(e2e.sim.origin, { type: 'tavily', models: [DEFAULT_SEARCH_MODEL], keys: [SIM_KEY] });
    const client = e2e.client();
    const first = await client.responses.create({ model: RESPONSES_MODEL, input: QUESTION, tools: [{ type: 'web_search' }] });
    const second = await client.responses.create({ model: RESPONSES_MODEL, input: 'and in 1.81?', tools: [{ type: 'web_search' }], previous_response_id: first.id });
    expect(second.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    expect(tavilyCalls().map((request) => (request.body as Json)['query'])).toEqual([QUESTION, 'and in 1.81?']);
    const turns = (modelCalls()[1]?.['messages'] as Array<{ role: string; content: string }>).filter((message) => message.role !== 'system');
    expect(turns).toEqual([
      { role: 'user', content: QUESTION },
      { role: 'assistant', content: first.output_text },
      { role: 'user', content: 'and in 1.81?' },
    ]);
  });

  it('tool_choice none: no search, no item, one row', async () => {
    e2e = await startResponsesRelay(kind);
    await e2e.addChannel(e2e.sim.origin, { type: 'tavily', models: [DEFAULT_SEARCH_MODEL], keys: [SIM_KEY] });
    const { data: response, response: http } = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: QUESTION, tools: [{ type: 'web_search' }], tool_choice: 'none' }).withResponse();
    expect(response.output.map((item) => item.type)).toEqual(['message']);
    expect(tavilyCalls()).toEqual([]);
    const requestId = http.headers.get('x-request-id') ?? '';
    const [own, search] = await usageRowsFor(e2e, [requestId, `${requestId}-search`], 300);
    expect(own).toMatchObject({ endpoint: 'chat', status: 200 });
    expect(search).toBeUndefined();
  });
});
