import fs from 'node:fs';
import http from 'node:http';
import WebSocket from 'ws';
import { RESPONSES_MODEL, responsesChannelKinds } from './responses-e2e';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { connect, responseOf, type Json } from './responses-websocket-client';

/**
 * Responses over WebSocket (issue 29, item 4): `GET /v1/responses` upgraded on the relay's port,
 * `response.create` frames run as streamed POSTs through the one pipeline, the SSE events as
 * text frames, request errors as `error` events on an open socket, `store: false` continued from
 * the connection's memory, one usage row per response, the idle and age limits.
 */

/** Codex 0.171.0's own upgrade request (test-fixtures/openai-responses/…-websocket-upgrade-request.json), its key replaced. */
const codexUpgrade = JSON.parse(
  fs.readFileSync(`${__dirname}/../../../../test-fixtures/openai-responses/codex-0.171.0-websocket-upgrade-request.json`, 'utf8'),
) as { headers: Record<string, string> };
const CODEX_HEADERS = Object.fromEntries(
  Object.entries(codexUpgrade.headers).filter(([name]) => !['upgrade', 'sec-websocket-version', 'sec-websocket-key', 'sec-websocket-extensions', 'authorization'].includes(name)),
);


/** What the relay answers an upgrade it refuses: status, headers and body, and whether it ever upgraded. */
async function refusedUpgrade(e2e: E2eRelay, headers: Record<string, string>, path = '/v1/responses'): Promise<{ status: number; body: Json; opened: boolean }> {
  const ws = new WebSocket(`${e2e.url.replace('http:', 'ws:')}${path}`, { headers });
  let opened = false;
  ws.once('open', () => (opened = true));
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Json, opened }));
    });
    ws.once('error', (error) => (opened ? reject(error) : undefined));
  });
}

const nativeKind = responsesChannelKinds.find((kind) => kind.name === 'openai-native');
const chatOnlyKind = responsesChannelKinds.find((kind) => kind.name === 'openai-chat-only');

describe('Responses over WebSocket: the upgrade', () => {
  let e2e: E2eRelay;
  afterEach(() => e2e.close());

  it('a bad or missing key gets the usual JSON 401 and no 101; a good one upgrades (today: 404, Codex fell back to HTTP)', async () => {
    e2e = await startE2eRelay();
    const wrong = await refusedUpgrade(e2e, { authorization: 'Bearer sk-not-a-key' });
    // The POST's own answer to the same key.
    const post = await fetch(`${e2e.url}/v1/responses`, { method: 'POST', headers: { authorization: 'Bearer sk-not-a-key', 'content-type': 'application/json' }, body: '{}' });
    expect(wrong).toEqual({ status: post.status, opened: false, body: await post.json() });
    expect(wrong).toMatchObject({ status: 401, body: { error: { type: 'authentication_error', code: 'invalid_api_key' } } });
    const missing = await refusedUpgrade(e2e, {});
    expect(missing.status).toBe(401);
    expect(missing.opened).toBe(false);

    const client = await connect(e2e, { authorization: `Bearer ${e2e.token}`, ...CODEX_HEADERS });
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    client.ws.close();
    // No usage row for a handshake: rows are per response.
    expect(await e2e.relay.storage.usageLog.recent(5)).toHaveLength(0);
  });

  it('an upgrade on another path is answered as that path is (404 for an unknown one), then closed', async () => {
    e2e = await startE2eRelay();
    const unknown = await refusedUpgrade(e2e, { authorization: `Bearer ${e2e.token}` }, '/v1/no-such-route');
    expect(unknown).toMatchObject({ status: 404, opened: false, body: { error: expect.objectContaining({ type: 'invalid_request_error' }) } });
    // A known route answers as it would without the upgrade header.
    const models = await refusedUpgrade(e2e, { authorization: `Bearer ${e2e.token}` }, '/v1/models');
    expect(models).toMatchObject({ status: 200, opened: false, body: { object: 'list' } });
  });
});

/** A request asking to upgrade to HTTP/2 cleartext, as `curl --http2` sends it. */
function h2cRequest(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}${path}`, {
      method,
      headers: { connection: 'Upgrade, HTTP2-Settings', upgrade: 'h2c', 'http2-settings': 'AAMAAABkAAQCAAAAAAIAAAAA', ...headers },
    });
    request.once('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    request.once('error', reject);
    request.end(body);
  });
}

describe('Responses over WebSocket: other upgrades are served as before', () => {
  let e2e: E2eRelay;
  afterEach(() => e2e.close());

  it('an h2c upgrade (curl --http2), a POST with its body included, is answered as plain HTTP/1.1', async () => {
    e2e = await startE2eRelay();
    const sim = await e2e.startSim();
    await e2e.addChannel(sim.baseUrl, { models: [RESPONSES_MODEL] });
    const json = { authorization: `Bearer ${e2e.token}`, 'content-type': 'application/json' };
    const posted = await h2cRequest(e2e.url, 'POST', '/v1/responses', json, JSON.stringify({ model: RESPONSES_MODEL, input: 'Over h2c' }));
    expect(posted.status).toBe(200);
    expect(JSON.parse(posted.body)).toMatchObject({ object: 'response', status: 'completed' });
    expect((await h2cRequest(e2e.url, 'GET', '/v1/models', { authorization: `Bearer ${e2e.token}` })).status).toBe(200);
  });
});

describe.each([nativeKind, chatOnlyKind].map((kind) => [kind?.name, kind] as const))('Responses over WebSocket on a %s channel', (_name, kind) => {
  let e2e: E2eRelay;
  afterEach(() => e2e.close());

  it('two responses chained by previous_response_id with store:false, the second sent only its new input; one usage row each', async () => {
    if (!kind) throw new Error('no channel kind');
    e2e = await startE2eRelay();
    const sim = await e2e.startSim();
    await e2e.addChannel(kind.baseUrl(sim), { type: kind.type, models: [RESPONSES_MODEL], model_mapping: { [RESPONSES_MODEL]: kind.upstreamModel } });
    const client = await connect(e2e);

    const first = await client.create({ model: RESPONSES_MODEL, input: 'Hello there', store: false });
    expect(first.events.map((event) => event['type'])).toEqual(expect.arrayContaining(['response.created', 'response.output_text.delta', 'response.completed']));
    expect(first.last['type']).toBe('response.completed');
    const firstId = responseOf(first.last)['id'];

    const second = await client.create({ model: RESPONSES_MODEL, input: 'And again', store: false, previous_response_id: firstId });
    expect(second.last['type']).toBe('response.completed');
    // The upstream was given the whole conversation: the first turn, its answer, the new turn.
    const sent = JSON.stringify(kind.calls(sim).at(-1)?.body);
    expect(sent).toContain('Hello there');
    expect(sent).toContain('You said: Hello there');
    expect(sent).toContain('And again');
    expect(sent).not.toContain(String(firstId));

    const rows = await e2e.usageRows(2);
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.status)).toEqual([200, 200]);
    expect(new Set(rows.map((row) => row.requestId)).size).toBe(2);
    client.ws.close();
  });
});

describe('Responses over WebSocket: errors keep the socket open', () => {
  let e2e: E2eRelay;
  afterEach(() => e2e.close());

  it('a refused request, bad JSON, an unknown event and background:true are error events; the next request is answered on the same socket', async () => {
    e2e = await startE2eRelay();
    const sim = await e2e.startSim();
    await e2e.addChannel(sim.baseUrl, { models: [RESPONSES_MODEL] });
    const client = await connect(e2e);

    const unknownModel = await client.create({ model: 'no-such-model', input: 'hi' });
    expect(unknownModel.events).toHaveLength(1);
    expect(unknownModel.last).toMatchObject({ type: 'error', status: 404, error: { type: 'invalid_request_error', code: 'model_not_found' } });

    client.ws.send('{not json');
    expect(await client.next()).toMatchObject({ type: 'error', status: 400, error: { code: 'invalid_json' } });
    client.send({ type: 'response.cancel' });
    expect(await client.next()).toMatchObject({ type: 'error', status: 400, error: { code: 'unsupported_event_type', param: 'type' } });
    expect((await client.create({ model: RESPONSES_MODEL, input: 'hi', background: true })).last).toMatchObject({ type: 'error', error: { param: 'background' } });
    // Codex's acknowledgement is taken without an answer.
    client.send({ type: 'response.processed', response_id: 'resp_x' });

    const answered = await client.create({ model: RESPONSES_MODEL, input: 'Still here?' });
    expect(answered.last['type']).toBe('response.completed');
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    // The refused request has its row, as over HTTP.
    const rows = await e2e.usageRows(2);
    expect(rows.map((row) => row.status)).toEqual([404, 200]);
    client.ws.close();
  });

  it('previous_response_id naming nothing the connection or the store holds is previous_response_not_found', async () => {
    e2e = await startE2eRelay();
    const sim = await e2e.startSim();
    await e2e.addChannel(sim.chatOnlyBaseUrl, { models: [RESPONSES_MODEL] });
    const client = await connect(e2e);
    const refused = await client.create({ model: RESPONSES_MODEL, input: 'hi', store: false, previous_response_id: 'resp_unknown' });
    expect(refused.last).toMatchObject({ type: 'error', status: 404, error: { code: 'previous_response_not_found', param: 'previous_response_id' } });
    client.ws.close();
  });

  it('generate:false (Codex prewarm) answers an id without a model call; the next request continues it', async () => {
    e2e = await startE2eRelay();
    const sim = await e2e.startSim();
    await e2e.addChannel(sim.chatOnlyBaseUrl, { models: [RESPONSES_MODEL] });
    const client = await connect(e2e);
    const warm = await client.create({ model: RESPONSES_MODEL, input: 'Warm words', store: false, generate: false });
    expect(warm.events.map((event) => event['type'])).toEqual(['response.created', 'response.completed']);
    expect(sim.requests.filter((request) => request.method === 'POST')).toHaveLength(0);
    const turn = await client.create({ model: RESPONSES_MODEL, input: [], store: false, previous_response_id: responseOf(warm.last)['id'] });
    expect(turn.last['type']).toBe('response.completed');
    expect(JSON.stringify(chatOnlyKind?.calls(sim).at(-1)?.body)).toContain('Warm words');
    expect(await e2e.usageRows(1)).toHaveLength(1);
    client.ws.close();
  });
});
