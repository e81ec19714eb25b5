import { DEFAULT_SEARCH_MODEL, type Channel } from '@chat-relay/contract';
import Database from 'better-sqlite3';
import path from 'node:path';
import type OpenAI from 'openai';
import { SQLITE_FILE_NAME } from '../../src/storage/sqlite/open-sqlite';
import type { StoredUsageLogEntry } from '../../src/storage/types';
import { agentBody, readAgentRequest } from './agent-fixtures';
import { SIM_KEY } from './e2e-relay';
import { RESPONSES_MODEL, responsesChannelKinds, startResponsesRelay, type ResponsesE2e } from './responses-e2e';
import { expectCapturedSpecValid, prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS, rawCapture } from './responses-spec-check';
import { usageRowsFor } from './usage-rows-for';

/**
 * SPEC §7a, issue 29 item 2: OpenAI's hosted `web_search` tool on channels without a Responses
 * API. The relay offers the model a function `web_search`; only when the model calls it does the
 * relay run a search (through a search channel, the simulator's Tavily), give the model the
 * results and ask it again — at most RELAY_WEB_SEARCH_MAX_CALLS searches a response — and answer
 * one Response with a `web_search_call` item per search, streamed as OpenAI streams it. Each
 * search has its own usage row; the response's row adds up its model calls.
 */

type Json = Record<string, unknown>;
type Response = OpenAI.Responses.Response;
type WebSearchCall = OpenAI.Responses.ResponseFunctionWebSearch;
type StreamEvent = OpenAI.Responses.ResponseStreamEvent;

/** The user asks for a search (the simulator's model then calls the search function with these words). */
const QUESTION = 'search the web for what changed in rust 1.80';
const BAD_KEY = 'tvly-revoked-0123456789abcdef';
const bridgedKinds = responsesChannelKinds.filter((kind) => !kind.native);

/** Codex's second request of a turn: its shell call and the call's output, with the tools it declares on every request. */
const SHELL: OpenAI.Responses.FunctionTool = { type: 'function', name: 'shell', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } } }, strict: false };
const CODEX_TOOL_RESULT_TURN: OpenAI.Responses.ResponseInput = [
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'what is in this folder?' }] },
  { type: 'function_call', call_id: 'call_codex_1', name: 'shell', arguments: '{"command":["ls"]}' },
  { type: 'function_call_output', call_id: 'call_codex_1', output: 'Cargo.toml\nsrc' },
];
const CODEX_WEB_SEARCH = { type: 'web_search', external_web_access: true } as unknown as OpenAI.Responses.WebSearchTool;

const searchesOf = (response: Response): WebSearchCall[] => response.output.filter((item): item is WebSearchCall => item.type === 'web_search_call');
const sourcesOf = (call: WebSearchCall | undefined): string[] => (call?.action.type === 'search' ? (call.action.sources ?? []).map((source) => source.url) : []);
const typesOf = (response: Response): string[] => response.output.map((item) => item.type);

describe.each(bridgedKinds)('issue 29: hosted web_search on a bridged channel runs only when the model asks for it ($name)', (kind) => {
  let e2e: ResponsesE2e;
  let tavily: Channel;
  const tavilyCalls = () => e2e.sim.requests.filter((request) => request.path === '/search');
  const modelCalls = () => kind.calls(e2e.sim).map((request) => request.body as Json);

  beforeAll(prepareResponsesSpec, PREPARE_SPEC_TIMEOUT_MS);
  afterEach(() => e2e.close());

  async function start(env: Record<string, string> = {}, searchKey = SIM_KEY): Promise<void> {
    e2e = await startResponsesRelay(kind, {}, { env });
    tavily = await e2e.addChannel(e2e.sim.origin, { name: 'tavily', type: 'tavily', models: [DEFAULT_SEARCH_MODEL], keys: [searchKey] });
  }

  /** The response's row and its searches', in that order. */
  async function rowsOf(requestId: string, searches: number): Promise<StoredUsageLogEntry[]> {
    const ids = [requestId, ...Array.from({ length: searches }, (_, index) => `${requestId}-search${index === 0 ? '' : `-${index + 1}`}`)];
    const rows = await usageRowsFor(e2e, ids);
    expect(rows.map((row) => row?.requestId)).toEqual(ids);
    return rows as StoredUsageLogEntry[];
  }

  it('a Codex-shaped tool-result turn does no search: one model call, no web_search_call, one row', async () => {
    await start();
    const { data: response, response: http } = await e2e
      .client()
      .responses.create({ model: RESPONSES_MODEL, input: CODEX_TOOL_RESULT_TURN, tools: [SHELL, CODEX_WEB_SEARCH] })
      .withResponse();
    expect(tavilyCalls()).toEqual([]);
    expect(modelCalls()).toHaveLength(1);
    expect(typesOf(response)).toEqual(['message']);
    // The search was offered, as a function of its own beside the caller's, and not injected as text.
    expect(JSON.stringify(modelCalls()[0])).toContain('"web_search"');
    expect(JSON.stringify(modelCalls()[0])).not.toMatch(/web search (was attempted|failed)/i);
    const requestId = http.headers.get('x-request-id') ?? '';
    const [own, search] = await usageRowsFor(e2e, [requestId, `${requestId}-search`], 300);
    expect(own).toMatchObject({ endpoint: 'chat', status: 200 });
    expect(search).toBeUndefined();
  });

  it('Codex’s own recorded tool-result step (web_search with external_web_access: false) runs no search', async () => {
    await start();
    const recorded = agentBody(readAgentRequest('codexGpt55ToolResult'));
    // Its function tools and web_search (the other tool types are not this spec's: issue 29 item 1).
    const tools = (recorded['tools'] as Json[]).filter((tool) => tool['type'] === 'function' || tool['type'] === 'web_search');
    expect(tools.find((tool) => tool['type'] === 'web_search')).toMatchObject({ external_web_access: false });
    const response = await fetch(`${e2e.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${e2e.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...recorded, model: RESPONSES_MODEL, tools, stream: false }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Response).output.map((item) => item.type)).not.toContain('web_search_call');
    expect(tavilyCalls()).toEqual([]);
    expect(modelCalls()).toHaveLength(1);
    expect(JSON.stringify(modelCalls()[0])).not.toContain('web_search');
  });

  it('not streamed: the model’s call runs exactly one search of its query, the results go back to it, the answer has the web_search_call before the message', async () => {
    await start();
    const capture = rawCapture();
    const client = e2e.client({ fetch: capture.fetch });
    const { data: response, response: http } = await client.responses.create({ model: RESPONSES_MODEL, input: QUESTION, tools: [{ type: 'web_search' }] }).withResponse();

    expect(typesOf(response)).toEqual(['web_search_call', 'message']);
    const [call] = searchesOf(response);
    expect(call).toMatchObject({ id: expect.stringMatching(/^ws_/), status: 'completed', action: { type: 'search', query: QUESTION } });
    expect(sourcesOf(call)).toHaveLength(5);
    expect(tavilyCalls().map((request) => request.body)).toEqual([{ query: QUESTION, max_results: 5, topic: 'general', search_depth: 'basic', include_answer: false }]);
    // Two model calls: the one that called the search, and the one given its results (each URL).
    expect(modelCalls()).toHaveLength(2);
    const second = JSON.stringify(modelCalls()[1]);
    for (const url of sourcesOf(call)) expect(second).toContain(url);
    expect(response.output_text).not.toBe('');

    const [own, search] = await rowsOf(http.headers.get('x-request-id') ?? '', 1);
    // One row for the model calls, their usage added up as the Response reports it.
    expect(own).toMatchObject({ endpoint: 'chat', status: 200, requestedModel: RESPONSES_MODEL, units: 0, promptTokens: response.usage?.input_tokens, completionTokens: response.usage?.output_tokens });
    expect(search).toMatchObject({ endpoint: 'search', status: 200, units: 1, requestedModel: DEFAULT_SEARCH_MODEL, channelId: tavily.id, attempts: 1 });
    // Stored as answered: retrieval shows the search too.
    expect(typesOf(await client.responses.retrieve(response.id))).toEqual(['web_search_call', 'message']);
    expect(await expectCapturedSpecValid(capture)).toBe(2);
  });

  it('streamed: OpenAI’s web search events while the search runs, then the message at output_index 1, every event as the SDK types it', async () => {
    await start();
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
    expect(added?.type === 'response.output_item.added' ? added.item : undefined).toMatchObject({ type: 'web_search_call', status: 'in_progress', action: { type: 'search', query: QUESTION } });
    const firstOfMessage = events.find((event) => event.type === 'response.output_item.added' && event.item.type === 'message');
    expect(firstOfMessage && 'output_index' in firstOfMessage ? firstOfMessage.output_index : undefined).toBe(1);
    expect(events.filter((event) => event.type === 'response.created')).toHaveLength(1);
    expect(events.some((event) => event.type === 'response.function_call_arguments.delta')).toBe(false);
    const final = events.at(-1);
    if (final?.type !== 'response.completed') throw new Error(`the stream ended with ${final?.type}`);
    expect(typesOf(final.response)).toEqual(['web_search_call', 'message']);
    expect(sourcesOf(searchesOf(final.response)[0])).toHaveLength(5);
    expect(tavilyCalls()).toHaveLength(1);
    expect(modelCalls()).toHaveLength(2);

    const [own, search] = await rowsOf(http.headers.get('x-request-id') ?? '', 1);
    expect(own).toMatchObject({ endpoint: 'chat', status: 200, stream: true, promptTokens: final.response.usage?.input_tokens, completionTokens: final.response.usage?.output_tokens });
    expect(search).toMatchObject({ endpoint: 'search', status: 200, units: 1, stream: false });
    expect(await expectCapturedSpecValid(capture)).toBe(1);
  });

  it('the bound holds: a model that keeps searching gets RELAY_WEB_SEARCH_MAX_CALLS searches, then must answer', async () => {
    await start({ RELAY_WEB_SEARCH_MAX_CALLS: '2' });
    const input = `${QUESTION}, and keep searching`;
    const { data: response, response: http } = await e2e.client().responses.create({ model: RESPONSES_MODEL, input, tools: [{ type: 'web_search' }] }).withResponse();
    expect(typesOf(response)).toEqual(['web_search_call', 'web_search_call', 'message']);
    expect(tavilyCalls()).toHaveLength(2);
    expect(modelCalls()).toHaveLength(3);
    const rows = await rowsOf(http.headers.get('x-request-id') ?? '', 2);
    expect(rows.map((row) => row.endpoint)).toEqual(['chat', 'search', 'search']);

    const streamed = await e2e.client().responses.create({ model: RESPONSES_MODEL, input, tools: [{ type: 'web_search' }], stream: true });
    const events: StreamEvent[] = [];
    for await (const event of streamed) events.push(event);
    const final = events.at(-1);
    if (final?.type !== 'response.completed') throw new Error(`the stream ended with ${final?.type}`);
    expect(typesOf(final.response)).toEqual(['web_search_call', 'web_search_call', 'message']);
    expect(tavilyCalls()).toHaveLength(4);
  });

  it('external_web_access: false does no search: the search is not offered', async () => {
    await start();
    const tool = { type: 'web_search', external_web_access: false } as unknown as OpenAI.Responses.WebSearchTool;
    for (const stream of [false, true]) {
      const answer = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: QUESTION, tools: [SHELL, tool], stream });
      if (!stream) expect(typesOf(answer as Response)).not.toContain('web_search_call');
      else for await (const _event of answer as AsyncIterable<StreamEvent>);
    }
    expect(tavilyCalls()).toEqual([]);
    for (const call of modelCalls()) expect(JSON.stringify(call)).not.toContain('web_search');
  });

  it('with no search channel the search is not offered, and nothing says it failed', async () => {
    e2e = await startResponsesRelay(kind);
    const response = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: QUESTION, tools: [{ type: 'web_search' }] });
    expect(typesOf(response)).toEqual(['message']);
    expect(modelCalls()).toHaveLength(1);
    const sent = JSON.stringify(modelCalls()[0]);
    expect(sent).not.toContain('web_search');
    expect(sent).not.toMatch(/search (was attempted|failed)/i);
  });

  it('tool_choice none: no search, not offered, one row', async () => {
    await start();
    const { data: response, response: http } = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: QUESTION, tools: [{ type: 'web_search' }], tool_choice: 'none' }).withResponse();
    expect(typesOf(response)).toEqual(['message']);
    expect(tavilyCalls()).toEqual([]);
    const requestId = http.headers.get('x-request-id') ?? '';
    const [own, search] = await usageRowsFor(e2e, [requestId, `${requestId}-search`], 300);
    expect(own).toMatchObject({ endpoint: 'chat', status: 200 });
    expect(search).toBeUndefined();
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

  it('search_context_size and filters.allowed_domains become the result count and the domains searched; the function follows the caller’s, under a name none of theirs has', async () => {
    e2e = await startResponsesRelay(kind, { responses_api: 'bridged' });
    await e2e.addChannel(e2e.sim.origin, { type: 'tavily', models: [DEFAULT_SEARCH_MODEL], keys: [SIM_KEY] });
    const own: OpenAI.Responses.FunctionTool = { type: 'function', name: 'web_search', parameters: { type: 'object', properties: {} }, strict: false };
    const response = await e2e.client().responses.create({
      model: RESPONSES_MODEL,
      input: QUESTION,
      tools: [own, { type: 'web_search', search_context_size: 'low', filters: { allowed_domains: ['example.org', 'https://en.wikipedia.org/wiki'] } }],
      tool_choice: { type: 'web_search' } as unknown as OpenAI.Responses.ToolChoiceTypes,
    });
    const tools = modelCalls()[0]?.['tools'] as Json[];
    expect(tools.map((tool) => (tool['function'] as Json)['name'])).toEqual(['web_search', 'web_search_2']);
    expect(modelCalls()[0]?.['tool_choice']).toEqual({ type: 'function', function: { name: 'web_search_2' } });
    expect(tavilyCalls()[0]?.body).toMatchObject({ max_results: 3, include_domains: ['example.org', 'en.wikipedia.org'] });
    const sources = sourcesOf(searchesOf(response)[0]);
    expect(sources).toHaveLength(3);
    for (const url of sources) expect(new URL(url).hostname).toMatch(/(^|\.)example\.org$|^en\.wikipedia\.org$/);
    // Forced once: the model given the results may answer.
    expect(modelCalls()[1]?.['tool_choice']).toBe('auto');
    expect(e2e.sim.requests.filter((request) => request.path.endsWith('/responses'))).toEqual([]);
  });

  it('a refused search key: the model is told the search failed, the item says failed, the key is disabled, the search row says why', async () => {
    e2e = await startResponsesRelay(kind);
    const tavily = await e2e.addChannel(e2e.sim.origin, { type: 'tavily', models: [DEFAULT_SEARCH_MODEL], keys: [BAD_KEY] });
    const { data: response, response: http } = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: QUESTION, tools: [{ type: 'web_search' }] }).withResponse();
    expect(response.status).toBe('completed');
    expect(response.output.map((item) => [item.type, 'status' in item ? item.status : undefined])).toEqual([
      ['web_search_call', 'failed'],
      ['message', 'completed'],
    ]);
    const told = (modelCalls()[1]?.['messages'] as Array<{ role: string; content: string }>).find((message) => message.role === 'tool');
    expect(told?.content).toMatch(/web search failed/);
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
    const again = 'search the web again for 1.81';
    const second = await client.responses.create({ model: RESPONSES_MODEL, input: again, tools: [{ type: 'web_search' }], previous_response_id: first.id });
    expect(typesOf(second)).toEqual(['web_search_call', 'message']);
    expect(tavilyCalls().map((request) => (request.body as Json)['query'])).toEqual([QUESTION, again]);
    const turns = (modelCalls()[2]?.['messages'] as Array<{ role: string; content: string }>).filter((message) => message.role === 'user' || (message.role === 'assistant' && !('tool_calls' in message)));
    expect(turns).toEqual([
      { role: 'user', content: QUESTION },
      { role: 'assistant', content: first.output_text },
      { role: 'user', content: again },
    ]);
  });
});
