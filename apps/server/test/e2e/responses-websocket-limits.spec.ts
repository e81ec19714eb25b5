import fs from 'node:fs';
import { startUpstreamSim } from '@chat-relay/upstream-sim';
import { gracefulShutdown } from '../../src/graceful-shutdown';
import { createLogger } from '../../src/logger';
import { openSqliteStorage } from '../../src/storage/sqlite/open-sqlite';
import { patchToken } from '../testing/patch-token';
import { createTestRelay, defaultServerOptions, listen } from '../testing/test-relay';
import { RESPONSES_MODEL } from './responses-e2e';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { connect } from './responses-websocket-client';

/**
 * Responses over WebSocket (issue 29, item 4), its limits: a client leaving mid-response, the idle
 * and age limits, token concurrency per response in flight, and a graceful shutdown.
 */

describe('Responses over WebSocket: a client that leaves', () => {
  let e2e: E2eRelay;
  afterEach(() => e2e.close());

  it('closing the socket mid-response ends its request as a client that left: the row says 499 client_closed', async () => {
    e2e = await startE2eRelay();
    const sim = await e2e.startSim();
    await e2e.addChannel(sim.baseUrl, { models: [RESPONSES_MODEL] });
    const client = await connect(e2e);
    client.send({ type: 'response.create', model: RESPONSES_MODEL, input: 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen [sim:latency=200]' });
    expect((await client.next())['type']).toBe('response.created');
    const leftAt = Date.now();
    client.ws.terminate();
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 499, errorCode: 'client_closed' });
    // Well before the stream would have ended (about 4 s): the request ended when the socket did.
    expect(Date.now() - leftAt).toBeLessThan(2500);
  }, 15_000);
});

describe('Responses over WebSocket: limits', () => {
  let e2e: E2eRelay;
  afterEach(() => e2e.close());

  it('closes an idle socket after RELAY_RESPONSES_WS_IDLE_TIMEOUT_MS with the error Codex reconnects on', async () => {
    e2e = await startE2eRelay({ env: { RELAY_RESPONSES_WS_IDLE_TIMEOUT_MS: '1000' } });
    const client = await connect(e2e);
    const startedAt = Date.now();
    expect(await client.next(3000)).toMatchObject({ type: 'error', error: { code: 'websocket_connection_limit_reached' } });
    expect(await client.closed).toEqual({ code: 1000, reason: 'idle timeout' });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
  });

  it('a socket past RELAY_RESPONSES_WS_MAX_AGE_MS is closed once its response has ended, not during it', async () => {
    e2e = await startE2eRelay({ env: { RELAY_RESPONSES_WS_MAX_AGE_MS: '1000' } });
    const sim = await e2e.startSim();
    await e2e.addChannel(sim.baseUrl, { models: [RESPONSES_MODEL] });
    const client = await connect(e2e);
    // About 1.5 s of streaming: still under way when the age is reached.
    const slow = await client.create({ model: RESPONSES_MODEL, input: 'one two three four five six seven eight nine ten eleven twelve [sim:latency=100]' });
    expect(slow.last['type']).toBe('response.completed');
    expect(await client.next()).toMatchObject({ type: 'error', error: { code: 'websocket_connection_limit_reached' } });
    expect((await client.closed).code).toBe(1000);
  });
});

describe('Responses over WebSocket: token concurrency', () => {
  let e2e: E2eRelay;
  afterEach(() => e2e.close());

  it('counts each response in flight: a second response.create while one streams is refused for concurrency 1, as an error event', async () => {
    e2e = await startE2eRelay();
    const sim = await e2e.startSim();
    await e2e.addChannel(sim.baseUrl, { models: [RESPONSES_MODEL] });
    await patchToken(e2e.relay, e2e.tokenId, { rate_limit: { concurrency: 1 } });
    const client = await connect(e2e);
    client.send({ type: 'response.create', model: RESPONSES_MODEL, input: 'one two three four five six [sim:latency=60]' });
    expect((await client.next())['type']).toBe('response.created');
    client.send({ type: 'response.create', model: RESPONSES_MODEL, input: 'meanwhile' });
    const frames = await client.until('response.completed');
    expect(frames).toContainEqual(expect.objectContaining({ type: 'error', status: 429, error: expect.objectContaining({ code: 'concurrency_limit_exceeded' }) }));
    // The slot is back once the first has ended: the socket carries on.
    expect((await client.create({ model: RESPONSES_MODEL, input: 'now' })).last['type']).toBe('response.completed');
    client.ws.close();
  });
});

describe('Responses over WebSocket: shutdown', () => {
  it('closes an idle socket at once (1001) and a busy one once its response has ended; the row of its response is written', async () => {
    const sim = await startUpstreamSim({ acceptedKeys: ['sk-sim'] });
    const relay = await createTestRelay();
    const options = defaultServerOptions();
    const http = await listen(relay.app, options);
    const admin = { authorization: `Bearer ${relay.adminKey}`, 'content-type': 'application/json' };
    await fetch(`${http.url}/api/channels`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'sim', type: 'openai', base_url: sim.baseUrl, keys: ['sk-sim'], models: [RESPONSES_MODEL] }) });
    const { key } = (await (await fetch(`${http.url}/api/tokens`, { method: 'POST', headers: admin, body: '{"name":"t"}' })).json()) as { key: string };
    const target = { url: http.url, token: key };
    const idle = await connect(target);
    const busy = await connect(target);
    busy.send({ type: 'response.create', model: RESPONSES_MODEL, input: 'one two three four five six seven eight [sim:latency=50]' });
    expect((await busy.next())['type']).toBe('response.created');

    const stopped = gracefulShutdown({ server: http.server, services: relay.services, storage: relay.storage, logger: createLogger('silent'), graceMs: 10_000, webSockets: options.webSockets })('SIGTERM');
    expect(await idle.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    const rest = await busy.until('response.completed');
    expect(rest.at(-1)?.['type']).toBe('response.completed');
    expect((await busy.closed).code).toBe(1001);
    await stopped;

    const reopened = openSqliteStorage(relay.dataDir);
    const rows = await reopened.usageLog.recent(5);
    expect(rows.map((row) => row.status)).toEqual([200]);
    await reopened.close();
    await sim.close();
    fs.rmSync(relay.dataDir, { recursive: true, force: true });
  });
});
