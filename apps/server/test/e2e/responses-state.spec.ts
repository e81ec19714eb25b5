import type { Channel } from '@chat-relay/contract';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import OpenAI from 'openai';
import { createAccount, createToken } from '../testing/system-api';
import { patchToken } from '../testing/patch-token';
import { namedEventsOf } from './anthropic-e2e';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { createAssistant } from './gizmo-assistants';
import { expectSpecValid } from './openai-spec';
import { RESPONSES_MODEL, responsesChannelKinds, startResponsesRelay, type ResponsesChannelKind, type ResponsesE2e } from './responses-e2e';
import { ROOMY } from '../storage/testing/roomy-limits';

/**
 * The Responses API's state and edges through the relay (issue 13): the memory of channels
 * without the endpoint, where stored responses live (channel, key, account), what
 * RELAY_RESPONSES_STORE / store:false / expiry do, cancel, errors, custom assistants, quota.
 */

type Json = Record<string, unknown>;
interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const kindNamed = (name: ResponsesChannelKind['name']): ResponsesChannelKind => {
  const kind = responsesChannelKinds.find((candidate) => candidate.name === name);
  if (!kind) throw new Error(`no kind ${name}`);
  return kind;
};
const nativeKind = kindNamed('openai-native');
const anthropicKind = kindNamed('anthropic');
const bridgedKinds = responsesChannelKinds.filter((kind) => !kind.native);

/** A call on the relay's `/v1` with a token (the e2e token unless told), answered as JSON or text. */
async function relayCall(e2e: E2eRelay, method: string, path: string, body?: object, token = e2e.token): Promise<{ status: number; json: Json; text: string }> {
  const response = await fetch(`${e2e.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let json: Json = {};
  try {
    json = JSON.parse(text) as Json;
  } catch {
    // a stream: the caller reads `text`
  }
  return { status: response.status, json, text };
}

/** The error of a refused call, checked against OpenAI's ErrorResponse: `{error: {message, type, param, code}}`. */
async function relayError(e2e: E2eRelay, method: string, path: string, body?: object, token = e2e.token): Promise<{ status: number } & ErrorBody> {
  const { status, json } = await relayCall(e2e, method, path, body, token);
  expect(status).toBeGreaterThanOrEqual(400);
  expectSpecValid('ErrorResponse', json);
  const { error } = json as unknown as ErrorBody;
  expect(Object.keys(error).sort()).toEqual(['code', 'message', 'param', 'type']);
  return { status, error };
}

async function admin(e2e: E2eRelay, method: string, path: string, body?: object): Promise<Json> {
  const response = await fetch(`${e2e.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${e2e.relay.adminKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} /api${path} answered ${response.status}: ${text}`);
  return text === '' ? {} : (JSON.parse(text) as Json);
}

const channelNow = async (e2e: E2eRelay, id: number): Promise<Channel> => (await admin(e2e, 'GET', `/channels/${id}`)) as unknown as Channel;
const paths = (sim: UpstreamSim): string[] => sim.requests.map((request) => `${request.method} ${request.path}`);
const events = (text: string): Json[] => namedEventsOf(text).map(({ data }) => JSON.parse(data) as Json);

/** A circuit that one counted failure would open: "not opened" then means something. */
const touchyCircuit = { minFailures: 1, perCallerCap: 1, failureRate: 0.01, coolDownMs: 60_000 };

describe('the 404 memory of an openai channel without the Responses API', () => {
  let e2e: E2eRelay;
  afterEach(() => e2e.close());

  it.each([false, true])('auto → the first request (stream %s) is bridged on the same channel; the channel then shows bridged and is asked no more', async (stream) => {
    e2e = await startE2eRelay({ circuit: touchyCircuit });
    const sim = await e2e.startSim();
    const channel = await e2e.addChannel(sim.chatOnlyBaseUrl, { models: [RESPONSES_MODEL] });
    expect(channel.responses_api).toBe('auto');

    const first = await relayCall(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'Hello there', stream });
    expect(first.status).toBe(200);
    const answer = stream ? (events(first.text).at(-1)?.['response'] as Json) : first.json;
    expect(answer['status']).toBe('completed');
    expect(paths(sim)).toEqual(['POST /chat-only/v1/responses', 'POST /chat-only/v1/chat/completions']);
    const rows = await e2e.usageRows(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 200, channelId: channel.id, errorCode: null });
    const shown = await channelNow(e2e, channel.id);
    expect(shown.responses_api).toBe('bridged');
    expect(shown.health).toMatchObject({ state: 'closed', failures: 0 });

    const second = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'Again' });
    expect(second.output_text).toBe('You said: Again');
    expect(paths(sim).filter((path) => path.endsWith('/responses'))).toHaveLength(1);
    expect(paths(sim).at(-1)).toBe('POST /chat-only/v1/chat/completions');
  });

  it('a 405 is remembered the same way', async () => {
    e2e = await startE2eRelay({ circuit: touchyCircuit });
    const sim = await e2e.startSim({ responsesApi: 405 });
    const channel = await e2e.addChannel(sim.baseUrl, { models: [RESPONSES_MODEL] });
    const first = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'Hello there' });
    expect(first.output_text).toBe('You said: Hello there');
    expect(paths(sim)).toEqual(['POST /v1/responses', 'POST /v1/chat/completions']);
    expect((await channelNow(e2e, channel.id)).responses_api).toBe('bridged');
    await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'Again' });
    expect(paths(sim).at(-1)).toBe('POST /v1/chat/completions');
    expect((await channelNow(e2e, channel.id)).health.failures).toBe(0);
  });

  it('set to native by the admin, a 404 is an error (not bridged); set to bridged, a channel with the API is not asked for it', async () => {
    e2e = await startE2eRelay();
    const chatOnly = await e2e.startSim();
    const channel = await e2e.addChannel(chatOnly.chatOnlyBaseUrl, { models: [RESPONSES_MODEL] });
    await admin(e2e, 'PATCH', `/channels/${channel.id}`, { responses_api: 'native' });
    const refused = await relayError(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'Hello there' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(paths(chatOnly)).toEqual(['POST /chat-only/v1/responses']);
    expect((await channelNow(e2e, channel.id)).responses_api).toBe('native');

    const full = await e2e.startSim();
    const other = await e2e.addChannel(full.baseUrl, { models: ['gpt-4.1-mini'], responses_api: 'bridged' });
    expect(other.responses_api).toBe('bridged');
    const answer = await e2e.client().responses.create({ model: 'gpt-4.1-mini', input: 'Hello there' });
    expect(answer.output_text).toBe('You said: Hello there');
    expect(paths(full)).toEqual(['POST /v1/chat/completions']);
    // And back to auto → native again.
    await admin(e2e, 'PATCH', `/channels/${other.id}`, { responses_api: 'auto' });
    await e2e.client().responses.create({ model: 'gpt-4.1-mini', input: 'Hello there' });
    expect(paths(full).at(-1)).toBe('POST /v1/responses');
  });
  it('a 404 naming a code (the upstream forgot a response) is about the request: passed on, the channel stays auto', async () => {
    e2e = await startE2eRelay({ circuit: touchyCircuit });
    const sim = await e2e.startSim();
    const channel = await e2e.addChannel(sim.baseUrl, { models: [RESPONSES_MODEL] });
    const first = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'Hello there' });
    sim.reset();
    const forgotten = await relayError(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'again', previous_response_id: first.id });
    expect(forgotten).toMatchObject({ status: 404, error: { code: 'previous_response_not_found', param: 'previous_response_id' } });
    expect(paths(sim)).toEqual(['POST /v1/responses']);
    const shown = await channelNow(e2e, channel.id);
    expect(shown.responses_api).toBe('auto');
    expect(shown.health).toMatchObject({ state: 'closed', failures: 0 });
  });
});

describe('affinity: a native response is continued where it lives', () => {
  const KEYS = ['sk-sim-key-one', 'sk-sim-key-two'];
  let e2e: E2eRelay;
  let home: UpstreamSim;
  let elsewhere: UpstreamSim;
  let channel: Channel;
  let first: OpenAI.Responses.Response;
  let creatorKey: string | undefined;

  beforeEach(async () => {
    e2e = await startE2eRelay();
    home = await e2e.startSim({ acceptedKeys: KEYS });
    channel = await e2e.addChannel(home.baseUrl, { keys: KEYS, models: [RESPONSES_MODEL], responses_api: 'native' });
    first = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'My name is Ada' });
    creatorKey = home.requests.at(-1)?.headers['authorization'] as string | undefined;
    // Then a second native channel for the same model, preferred for anything unpinned.
    elsewhere = await e2e.startSim();
    await e2e.addChannel(elsewhere.baseUrl, { models: [RESPONSES_MODEL], priority: 10, responses_api: 'native' });
  });
  afterEach(() => e2e.close());

  it('previous_response_id, GET and input_items go to the channel and key that created it', async () => {
    expect(KEYS.map((key) => `Bearer ${key}`)).toContain(creatorKey);
    const client = e2e.client();
    const unpinned = await client.responses.create({ model: RESPONSES_MODEL, input: 'Hello' });
    expect(unpinned.output_text).toBe('You said: Hello');
    expect(elsewhere.requests).toHaveLength(1);

    const before = home.requests.length;
    // Three turns, each continuing the last (the middle one streamed).
    const second = await client.responses.create({ model: RESPONSES_MODEL, input: 'turn two', previous_response_id: first.id });
    const streamed = await relayCall(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'turn three', previous_response_id: second.id, stream: true });
    const third = events(streamed.text).at(-1)?.['response'] as { id: string; previous_response_id: string; status: string };
    expect(third).toMatchObject({ previous_response_id: second.id, status: 'completed' });
    const fourth = await client.responses.create({ model: RESPONSES_MODEL, input: 'turn four', previous_response_id: third.id });
    expect([second.previous_response_id, fourth.previous_response_id]).toEqual([first.id, third.id]);
    const retrieved = await client.responses.retrieve(first.id);
    expect(retrieved).toMatchObject({ id: first.id, model: RESPONSES_MODEL, output_text: 'You said: My name is Ada' });
    const items = await client.responses.inputItems.list(first.id);
    expect(items.data).toHaveLength(1);
    const mine = home.requests.slice(before);
    expect(mine.length).toBe(5);
    expect(mine.map((request) => request.headers['authorization'])).toEqual(mine.map(() => creatorKey));
    expect(elsewhere.requests).toHaveLength(1);
  });

  it('its channel disabled or deleted: previous_response_id is a 400 previous_response_unavailable, GET a 404 response_unavailable', async () => {
    await admin(e2e, 'PATCH', `/channels/${channel.id}`, { enabled: false });
    for (const gone of ['disabled', 'deleted']) {
      const continued = await relayError(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'again', previous_response_id: first.id });
      expect({ gone, status: continued.status, param: continued.error.param, code: continued.error.code }).toEqual({
        gone,
        status: 400,
        param: 'previous_response_id',
        code: 'previous_response_unavailable',
      });
      const fetched = await relayError(e2e, 'GET', `/responses/${first.id}`);
      expect({ gone, status: fetched.status, code: fetched.error.code }).toEqual({ gone, status: 404, code: 'response_unavailable' });
      if (gone === 'disabled') {
        // Enabled again, it serves the response again.
        await admin(e2e, 'PATCH', `/channels/${channel.id}`, { enabled: true });
        expect((await e2e.client().responses.retrieve(first.id)).id).toBe(first.id);
        await admin(e2e, 'DELETE', `/channels/${channel.id}`);
      }
    }
    // Neither refusal reached another channel.
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe.each([nativeKind, anthropicKind])("another account's token ($name)", (kind) => {
  let e2e: ResponsesE2e;
  afterEach(() => e2e.close());

  it('finds none of our responses: 404 for GET, DELETE, input_items and cancel, previous_response_not_found when continuing', async () => {
    e2e = await startResponsesRelay(kind);
    const ours = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'secret' });
    const account = await createAccount(e2e.relay, { name: 'someone else' });
    const theirs = (await createToken(e2e.relay, { name: 'theirs' }, account.access_key)).key;
    for (const [method, path] of [
      ['GET', `/responses/${ours.id}`],
      ['GET', `/responses/${ours.id}/input_items`],
      ['POST', `/responses/${ours.id}/cancel`],
      ['DELETE', `/responses/${ours.id}`],
    ] as const) {
      const refused = await relayError(e2e, method, path, method === 'POST' ? {} : undefined, theirs);
      expect({ path, status: refused.status, code: refused.error.code }).toEqual({ path, status: 404, code: 'response_not_found' });
    }
    const continued = await relayError(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'x', previous_response_id: ours.id }, theirs);
    expect(continued).toMatchObject({ status: 404, error: { code: 'previous_response_not_found', param: 'previous_response_id' } });
    // Still ours, untouched by their DELETE.
    expect((await e2e.client().responses.retrieve(ours.id)).output_text).toBe('You said: secret');
    // No upstream call was made for them.
    expect(kind.calls(e2e.sim)).toHaveLength(1);
  });
});

describe('what is kept', () => {
  let e2e: ResponsesE2e;
  afterEach(() => e2e.close());

  it('RELAY_RESPONSES_STORE=false: a bridged previous_response_id is a 400 that says so; native ones still continue', async () => {
    e2e = await startResponsesRelay(anthropicKind, {}, { env: { RELAY_RESPONSES_STORE: 'false' } });
    const first = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'Hello there' });
    expect(first).toMatchObject({ store: true });
    const refused = await relayError(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'again', previous_response_id: first.id });
    expect(refused).toMatchObject({ status: 400, error: { param: 'previous_response_id', code: 'previous_response_unavailable' } });
    expect(refused.error.message).toMatch(/RELAY_RESPONSES_STORE=false/);
    expect((await relayError(e2e, 'GET', `/responses/${first.id}`)).status).toBe(404);
    await e2e.close();

    e2e = await startResponsesRelay(nativeKind, {}, { env: { RELAY_RESPONSES_STORE: 'false' } });
    const native = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'Hello there' });
    const next = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'again', previous_response_id: native.id });
    expect(next.previous_response_id).toBe(native.id);
  });

  it.each([nativeKind, anthropicKind])('store: false on a request ($name) → not retrievable, not continuable', async (kind) => {
    e2e = await startResponsesRelay(kind);
    const unkept = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'forget me', store: false });
    expect(unkept).toMatchObject({ store: false });
    expect(await relayError(e2e, 'GET', `/responses/${unkept.id}`)).toMatchObject({ status: 404, error: { code: 'response_not_found' } });
    const continued = await relayError(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'x', previous_response_id: unkept.id });
    expect(continued).toMatchObject({ status: 404, error: { code: 'previous_response_not_found' } });
  });

  it.each(responsesChannelKinds)('an item_reference to an output item of an earlier stored response, without previous_response_id ($name)', async (kind) => {
    // What the AI SDK sends after a step with text and a tool call (store on): OpenAI resolves it
    // against every stored item of the project, so the relay must for the responses it stores.
    e2e = await startResponsesRelay(kind);
    const weather = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: false };
    const first = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'get weather in Oslo [sim:preamble=on]', tools: [weather] });
    const [message, call] = first.output;
    if (message?.type !== 'message' || call?.type !== 'function_call') throw new Error(`unexpected output ${JSON.stringify(first.output)}`);
    const { status, json } = await relayCall(e2e, 'POST', '/responses', {
      model: RESPONSES_MODEL,
      tools: [weather],
      input: [
        { role: 'user', content: 'get weather in Oslo [sim:preamble=on]' },
        { type: 'item_reference', id: message.id },
        { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: 'function_call_output', call_id: call.call_id, output: 'rain' },
      ],
    });
    expect({ status, error: json['error'] }).toEqual({ status: 200, error: null });
    expect((json['output'] as Json[]).map((item) => item['type'])).toEqual(['message']);
  });

  it('RELAY_RESPONSES_TTL sets the expiry; an expired response is a 404 and is purged', async () => {
    e2e = await startResponsesRelay(anthropicKind, {}, { env: { RELAY_RESPONSES_TTL: '2d' } });
    const kept = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'Hello there' });
    const accountId = (await e2e.relay.storage.tokens.get(e2e.tokenId))?.accountId ?? -1;
    const stored = await e2e.relay.storage.responses.get(kept.id, accountId, new Date().toISOString());
    if (!stored) throw new Error('not stored');
    expect(Date.parse(stored.expiresAt) - Date.parse(stored.createdAt)).toBe(2 * 86_400_000);

    // The same row, expired a minute ago.
    const past = new Date(Date.now() - 60_000).toISOString();
    await e2e.relay.storage.responses.put({ ...stored, expiresAt: past }, ROOMY);
    expect(await relayError(e2e, 'GET', `/responses/${kept.id}`)).toMatchObject({ status: 404, error: { code: 'response_not_found' } });
    expect(await relayError(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'x', previous_response_id: kept.id })).toMatchObject({
      status: 404,
      error: { code: 'previous_response_not_found' },
    });
    const longAgo = new Date(0).toISOString();
    expect(await e2e.relay.storage.responses.get(kept.id, accountId, longAgo)).toBeDefined();
    await e2e.relay.services.responses.purge();
    expect(await e2e.relay.storage.responses.get(kept.id, accountId, longAgo)).toBeUndefined();
  });
});

describe('cancel', () => {
  let e2e: ResponsesE2e;
  afterEach(() => e2e.close());

  it('a bridged response is not cancellable (400), and background is refused on a bridged channel', async () => {
    e2e = await startResponsesRelay(anthropicKind);
    const done = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'Hello there' });
    expect(await relayError(e2e, 'POST', `/responses/${done.id}/cancel`, {})).toMatchObject({ status: 400, error: { code: 'response_not_cancellable' } });
    const background = await relayError(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'slowly', background: true });
    expect(background).toMatchObject({ status: 400, error: { param: 'background' } });
  });

  it('a native background response is cancelled at its channel', async () => {
    e2e = await startResponsesRelay(nativeKind);
    const queued = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'slowly [sim:latency=1000]', background: true });
    expect(queued.status).toBe('queued');
    const cancelled = await e2e.client().responses.cancel(queued.id);
    expect(cancelled).toMatchObject({ id: queued.id, status: 'cancelled', model: RESPONSES_MODEL });
    expect((await e2e.client().responses.retrieve(queued.id)).status).toBe('cancelled');
    expect(paths(e2e.sim).at(-2)).toBe(`POST /v1/responses/${queued.id}/cancel`);
    // A foreground one: the channel's own 400, passed on.
    const done = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'Hello there' });
    const refused = await relayError(e2e, 'POST', `/responses/${done.id}/cancel`, {});
    expect(refused).toMatchObject({ status: 400, error: { type: 'invalid_request_error', message: expect.stringMatching(/background=true/) } });
  });
});

describe('errors', () => {
  let e2e: ResponsesE2e;
  afterEach(() => e2e.close());

  it('a missing model, an incomplete input item: 400 naming the field, in OpenAI’s shape', async () => {
    e2e = await startResponsesRelay(nativeKind);
    const noModel = await relayError(e2e, 'POST', '/responses', { input: 'Hello' });
    expect(noModel).toMatchObject({ status: 400, error: { type: 'invalid_request_error', param: 'model' } });
    const noCallId = await relayError(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: [{ type: 'function_call' }] });
    expect(noCallId.status).toBe(400);
    expect(noCallId.error.param).toMatch(/^input\[0\]\.(call_id|name|arguments)$/);
    expect(noCallId.error.message).toContain(noCallId.error.param?.split('.')[1] ?? '?');
    expect(e2e.sim.requests).toHaveLength(0);
  });

  describe.each(responsesChannelKinds)('upstream failures ($name)', (kind) => {
    it('a 429 before the stream answers as Chat Completions does', async () => {
      e2e = await startResponsesRelay(kind, {}, { maxRetries: 0 });
      for (const stream of [false, true]) {
        const responses = await relayError(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'Hello [sim:fault=status:429]', stream });
        const chat = await e2e.postChat({ model: RESPONSES_MODEL, stream, messages: [{ role: 'user', content: 'Hello [sim:fault=status:429]' }] });
        const chatError = ((await chat.json()) as ErrorBody).error;
        expect({ stream, status: responses.status, type: responses.error.type, code: responses.error.code }).toEqual({
          stream,
          status: chat.status,
          type: chatError.type,
          code: chatError.code,
        });
        // SPEC §9: an upstream's 429 is the relay's retryable 5xx on both routes (not the caller's rate limit).
        expect(responses.status).toBeGreaterThanOrEqual(500);
      }
    });

    it(kind.native ? 'an error event mid-stream passes through, and ends the stream' : 'an error mid-stream ends the stream with response.failed and nothing after', async () => {
      e2e = await startResponsesRelay(kind);
      const { status, text } = await relayCall(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'Tell me a long story [sim:fault=stream-error]', stream: true });
      expect(status).toBe(200);
      const named = namedEventsOf(text);
      const types = named.map((event) => event.event);
      expect(types.slice(0, 2)).toEqual(['response.created', 'response.in_progress']);
      expect(types).not.toContain('response.completed');
      expect(text).not.toContain('[DONE]');
      const last = JSON.parse(named.at(-1)?.data ?? '{}') as Json;
      expect(last['sequence_number']).toBe(named.length - 1);
      if (kind.native) {
        // The upstream's own error event (its code and message), and the relay adds nothing after it.
        expect(types.at(-1)).toBe('error');
        expect(last).toMatchObject({ type: 'error', code: 'server_error', message: expect.stringMatching(/server had an error/) });
        expectSpecValid('ResponseErrorEvent', last);
        return;
      }
      expect(types.at(-1)).toBe('response.failed');
      expect(types.filter((type) => type === 'response.failed')).toHaveLength(1);
      const failed = last as { response: { id: string; status: string; error: { code: string; message: string } } };
      expect(failed.response.status).toBe('failed');
      // One of the codes OpenAI's ResponseError allows.
      expectSpecValid('ResponseError', failed.response.error);
      expect(failed.response.id).toBe((JSON.parse(named[0]?.data ?? '{}') as { response: { id: string } }).response.id);
    });
  });
});

describe.each([nativeKind, ...bridgedKinds])('a custom assistant as <model>-gizmo-<id> ($name)', (kind) => {
  let e2e: ResponsesE2e;
  afterEach(() => e2e.close());

  it('its instructions come before the request’s', async () => {
    e2e = await startResponsesRelay(kind);
    await createAssistant(e2e, { id: 'g-travel', name: 'Travel helper', instructions: 'You are a travel helper.' });
    const gizmo = `${RESPONSES_MODEL}-gizmo-g-travel`;
    const answer = await e2e.client().responses.create({ model: gizmo, input: 'Hello there', instructions: 'Answer in French.' });
    expect(answer.output_text).toBe('You said: Hello there');
    expect(answer.model).toBe(gizmo);
    const body = kind.calls(e2e.sim).at(-1)?.body as Json;
    if (kind.native) {
      expect(body['instructions']).toBe('You are a travel helper.\n\nAnswer in French.');
      expect(body['model']).toBe(kind.upstreamModel);
    } else if (kind.type === 'openai') {
      expect((body['messages'] as Json[]).slice(0, 2)).toEqual([
        { role: 'system', content: 'You are a travel helper.' },
        { role: 'system', content: 'Answer in French.' },
      ]);
    } else {
      const system = JSON.stringify(kind.type === 'gemini' ? body['systemInstruction'] : body['system']);
      expect(system.indexOf('You are a travel helper.')).toBeGreaterThanOrEqual(0);
      expect(system.indexOf('You are a travel helper.')).toBeLessThan(system.indexOf('Answer in French.'));
    }
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ assistantId: 'g-travel', requestedModel: gizmo, status: 200 });
  });
});

describe.each([nativeKind, anthropicKind])('quota and usage ($name)', (kind) => {
  let e2e: ResponsesE2e;
  afterEach(() => e2e.close());

  it('one usage row per create, charged to the token; GET, input_items and DELETE write none; an exhausted token is refused', async () => {
    e2e = await startResponsesRelay(kind);
    await admin(e2e, 'PUT', '/prices', { data: [{ model: RESPONSES_MODEL, input: 2_000_000, output: 8_000_000 }] });
    await patchToken(e2e.relay, e2e.tokenId, { quota_limit: 1_000_000_000 });
    const client = e2e.client();
    const first = await client.responses.create({ model: RESPONSES_MODEL, input: 'Hello there' });
    await relayCall(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'Stream it', stream: true });
    await client.responses.retrieve(first.id);
    await client.responses.inputItems.list(first.id);
    await client.responses.delete(first.id);
    const rows = await e2e.usageRows(2);
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => [row.requestedModel, row.status, row.stream])).toEqual([
      [RESPONSES_MODEL, 200, false],
      [RESPONSES_MODEL, 200, true],
    ]);
    for (const row of rows) expect(row.cost).toBeGreaterThan(0);
    const token = await e2e.relay.storage.tokens.get(e2e.tokenId);
    const charged = rows.reduce((sum, row) => sum + row.cost, 0);
    expect(token?.quotaUsed).toBe(charged);

    await patchToken(e2e.relay, e2e.tokenId, { quota_limit: charged });
    const refused = await relayError(e2e, 'POST', '/responses', { model: RESPONSES_MODEL, input: 'One more' });
    expect(refused).toMatchObject({ status: 429, error: { type: 'insufficient_quota', code: 'insufficient_quota' } });
    expect(kind.calls(e2e.sim)).toHaveLength(2);
  });
});

describe('a native background response', () => {
  let e2e: ResponsesE2e;
  afterEach(() => e2e.close());

  it('is charged the usage it really had, not an estimate of the queued answer', async () => {
    e2e = await startResponsesRelay(nativeKind);
    const queued = await e2e.client().responses.create({ model: RESPONSES_MODEL, input: 'Tell me a long story please [sim:latency=20]', background: true });
    expect(queued.status).toBe('queued');
    let done = await e2e.client().responses.retrieve(queued.id);
    for (let polls = 0; done.status !== 'completed' && polls < 40; polls += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      done = await e2e.client().responses.retrieve(queued.id);
    }
    expect(done.status).toBe('completed');
    expect(done.usage?.output_tokens).toBeGreaterThan(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const rows = await e2e.usageRows(1);
    const charged = { prompt: rows.reduce((sum, row) => sum + row.promptTokens, 0), completion: rows.reduce((sum, row) => sum + row.completionTokens, 0) };
    expect(charged).toEqual({ prompt: done.usage?.input_tokens, completion: done.usage?.output_tokens });
  });
});
