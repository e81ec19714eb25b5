import { createHash, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { ChannelRecord, ChannelTimeoutsMs } from '../../storage/types';
import { AccessTokens } from '../cloud/access-tokens';
import { CloudAuth } from '../cloud/cloud-auth';
import { classifyTransportError, LET_GO_BYTES, UpstreamClient, type UpstreamCall } from './upstream-client';

interface TestServer {
  url: string;
  connections: number;
  close(): Promise<void>;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 3000) throw new Error(`timed out waiting for ${what}`);
    await delay(5);
  }
}

let nextChannelId = 1;
const channel = (timeouts: Partial<ChannelTimeoutsMs> = {}): ChannelRecord => ({
  id: nextChannelId++,
  name: 'upstream',
  endpoints: null,
  syncedModels: null,
  modelsSyncedAt: null,
  type: 'openai',
  baseUrl: 'http://127.0.0.1:1',
  keys: ['sk-test'],
  keyStates: [],
  models: ['*'],
  modelMapping: {},
  priority: 0,
  weight: 1,
  enabled: true,
  responsesApi: 'auto',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  timeouts: { connectMs: 1000, firstByteMs: 5000, idleMs: 5000, ...timeouts },
});

describe('UpstreamClient against a real HTTP server', () => {
  let client: UpstreamClient;
  const servers: TestServer[] = [];

  beforeEach(() => (client = new UpstreamClient()));
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    await client.close();
  });

  async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
    const server = http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const state: TestServer = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      connections: 0,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
    server.on('connection', () => (state.connections += 1));
    servers.push(state);
    return state;
  }

  const post = (url: string, overrides: Partial<UpstreamCall> = {}) =>
    client.post({
      channel: channel(),
      url,
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: '{"model":"m"}',
      signal: new AbortController().signal,
      ...overrides,
    });

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.setEncoding('utf8').on('data', (piece: string) => (text += piece));
      req.on('end', () => resolve(text));
    });

  it('posts the body, headers, path and query, and returns the status and body of the answer', async () => {
    const server = await serve(async (req, res) => {
      const body = await readBody(req);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, url: req.url, authorization: req.headers.authorization, body }));
    });
    const response = await post(`${server.url}/v1/chat/completions?api-version=2`, { body: Buffer.from('{"x":"é"}') });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(await response.body.text())).toEqual({
      method: 'POST',
      url: '/v1/chat/completions?api-version=2',
      authorization: 'Bearer sk-test',
      body: '{"x":"é"}',
    });
  });

  it('reads the headers the relay uses whatever their case, the first of a repeated one, and nothing of a missing one', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(429, [
        ['Content-Type', 'application/json; charset=utf-8'],
        ['Retry-After-Ms', '1500'],
        ['RETRY-AFTER', '2'],
        ['retry-after', '9'],
        ['X-Request-Id', 'req_1'],
        ['Content-Length', '2'],
      ]);
      res.end('{}');
    });
    const response = await post(`${server.url}/v1/chat/completions`);
    expect(response.header('content-type')).toBe('application/json; charset=utf-8');
    expect(response.header('retry-after-ms')).toBe('1500');
    expect(response.header('retry-after')).toBe('2');
    expect(response.header('content-length')).toBe('2');
    await response.body.text();
    const bare = await serve((_req, res) => res.writeHead(200, [['Transfer-Encoding', 'chunked']]).end());
    const answered = await post(`${bare.url}/v1/chat/completions`);
    expect(answered.header('content-type')).toBeUndefined();
    expect(answered.header('content-length')).toBeUndefined();
  });

  it('sends a large body whole, with its length, and keeps none of it while the answer streams', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const received: Array<{ length?: string; chunked?: string; body: string }> = [];
    const answers: ServerResponse[] = [];
    const server = await serve(async (req, res) => {
      const body = await readBody(req);
      received.push({ length: req.headers['content-length'], chunked: req.headers['transfer-encoding'], body });
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: 1\n\n');
      answers.push(res);
    });
    const text = `{"messages":"${'é'.repeat(LET_GO_BYTES)}"}`;
    let sent: WeakRef<Buffer> | undefined;
    // Made in a function of their own: once it returns, only the client could hold the bytes.
    const open = (as: 'bytes' | 'text') => {
      const body = as === 'bytes' ? Buffer.from(text) : text;
      if (Buffer.isBuffer(body)) sent = new WeakRef(body);
      return post(`${server.url}/v1/chat/completions`, { body });
    };
    const fromBytes = await open('bytes');
    const fromText = await open('text');
    await until(() => received.length === 2, 'both bodies');
    for (const { length, chunked, body } of received) {
      expect({ length: Number(length), chunked, same: body === text }).toEqual({ length: Buffer.byteLength(text), chunked: undefined, same: true });
    }
    // A deref keeps its target alive to the end of the job: each GC runs in a job of its own.
    for (let round = 0; round < 3; round += 1) {
      await delay(10);
      gc();
      await delay(10);
      if (!sent?.deref()) break;
    }
    // Both answers still open: undici would have kept the request's bytes until they ended.
    expect(sent?.deref()).toBeUndefined();
    for (const answer of answers) answer.end('data: 2\n\n');
    expect(await fromBytes.body.text()).toBe('data: 1\n\ndata: 2\n\n');
    expect(await fromText.body.text()).toBe('data: 1\n\ndata: 2\n\n');
  });

  it("returns a 500 answer's status and text", async () => {
    const server = await serve((_req, res) => res.writeHead(500).end('{"error":{"message":"upstream broke"}}'));
    const response = await post(`${server.url}/v1/chat/completions`);
    expect(response.statusCode).toBe(500);
    expect(await response.body.text()).toBe('{"error":{"message":"upstream broke"}}');
  });

  it('reuses the keep-alive connection, and opens a new pool when the channel changes', async () => {
    const server = await serve((_req, res) => res.end('ok'));
    const record = channel();
    for (let i = 0; i < 3; i += 1) {
      expect(await (await post(server.url, { channel: record })).body.text()).toBe('ok');
      // The body ends inside undici's onComplete, before the connection is free again.
      await delay(5);
    }
    expect(server.connections).toBe(1);
    await (await post(server.url, { channel: { ...record, updatedAt: '2026-02-01T00:00:00.000Z' } })).body.text();
    expect(server.connections).toBe(2);
  });

  it('delivers a streamed answer piece by piece as the server writes it', async () => {
    let sendNext: () => void = () => undefined;
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      sendNext = () => {
        res.write('data: 2\n\n');
        sendNext = () => res.end();
      };
    });
    const { body } = await post(server.url);
    expect((await body.next()).value?.toString()).toBe('data: 1\n\n');
    const second = body.next();
    sendNext();
    expect((await second).value?.toString()).toBe('data: 2\n\n');
    const end = body.next();
    sendNext();
    expect(await end).toEqual({ value: undefined, done: true });
  });

  it('rejects as aborted when the signal fires before the headers, and the server sees the socket close', async () => {
    let socketClosed: Promise<void> | undefined;
    const server = await serve((req) => (socketClosed = new Promise((resolve) => req.socket.once('close', resolve))));
    const controller = new AbortController();
    const answer = post(server.url, { signal: controller.signal });
    await until(() => socketClosed !== undefined, 'the request to arrive');
    controller.abort();
    const error = await answer.catch((caught: unknown) => caught);
    expect(classifyTransportError(error)).toBe('aborted');
    await socketClosed;
  });

  it('does not send anything for a signal that is already aborted', async () => {
    const server = await serve((_req, res) => res.end());
    const controller = new AbortController();
    controller.abort();
    const error = await post(server.url, { signal: controller.signal }).catch((caught: unknown) => caught);
    expect(classifyTransportError(error)).toBe('aborted');
    expect(server.connections).toBe(0);
  });

  it('makes a waiting next() reject as aborted when the signal fires mid-body', async () => {
    const server = await serve((_req, res) => res.writeHead(200).write('partial'));
    const controller = new AbortController();
    const { body } = await post(server.url, { signal: controller.signal });
    expect((await body.next()).value?.toString()).toBe('partial');
    const waiting = body.next();
    controller.abort();
    const error = await waiting.catch((caught: unknown) => caught);
    expect(classifyTransportError(error)).toBe('aborted');
  });

  it('times out waiting for headers after firstByteMs', async () => {
    const server = await serve(() => undefined);
    const started = performance.now();
    const error = await post(server.url, { channel: channel({ firstByteMs: 100 }) }).catch((caught: unknown) => caught);
    // undici's timers tick every ~0.5 s, so only the lower bound is sharp.
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
    expect(error).toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(classifyTransportError(error)).toBe('timeout');
  });

  it('times out a body that stalls for longer than idleMs', async () => {
    const server = await serve((_req, res) => res.writeHead(200).write('data: 1\n\n'));
    const { body } = await post(server.url, { channel: channel({ idleMs: 100 }) });
    await body.next();
    const error = await body.next().catch((caught: unknown) => caught);
    expect(classifyTransportError(error)).toBe('timeout');
  });

  it('classifies a refused connection as unreachable', async () => {
    const closed = await serve(() => undefined);
    servers.splice(servers.indexOf(closed), 1);
    await closed.close();
    const error = await post(closed.url).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    expect(classifyTransportError(error)).toBe('unreachable');
  });

  it('passes a slow reader’s back-pressure to the server, then delivers every byte intact', async () => {
    const block = randomBytes(256 * 1024);
    const blocks = 128;
    const expected = createHash('sha256');
    for (let i = 0; i < blocks; i += 1) expected.update(block);
    const total = block.length * blocks;
    const sent = { bytes: 0, blocked: false };
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const writeMore = () => {
        sent.blocked = false;
        while (sent.bytes < total) {
          sent.bytes += block.length;
          if (!res.write(block)) {
            sent.blocked = true;
            res.once('drain', writeMore);
            return;
          }
        }
        res.end();
      };
      writeMore();
    });

    const { body } = await post(server.url);
    const received = createHash('sha256');
    let length = 0;
    const first = await body.next();
    received.update(first.value as Buffer);
    length += (first.value as Buffer).length;
    // The reader sleeps: without back-pressure undici would swallow the whole body meanwhile.
    await until(() => sent.blocked, 'the server to be blocked');
    await delay(100);
    const stalledAt = sent.bytes;
    await delay(100);
    expect(sent.blocked).toBe(true);
    expect(sent.bytes).toBe(stalledAt);
    expect(stalledAt).toBeLessThan(total);

    for (let next = await body.next(); !next.done; next = await body.next()) {
      received.update(next.value);
      length += next.value.length;
    }
    expect(length).toBe(total);
    expect(received.digest('hex')).toBe(expected.digest('hex'));
  });
});

describe('UpstreamClient: a cloud bearer refused with a 401', () => {
  const ENTRA_KEY = JSON.stringify({ tenant_id: 't', client_id: 'c', client_secret: 's' });

  /** Tokens `tok-1`, `tok-2` … for the Entra key; what the cloud answers each token is the test's. */
  async function setUp(answer: (bearer: string | undefined) => number) {
    let minted = 0;
    const tokens = new AccessTokens({ mint: async () => ({ token: `tok-${++minted}`, expiresAt: Date.now() + 3_600_000 }) });
    const client = new UpstreamClient(new CloudAuth(tokens));
    const seen: Array<string | undefined> = [];
    const server = http.createServer((req, res) => {
      req.resume();
      seen.push(req.headers.authorization);
      const status = answer(req.headers.authorization);
      res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{"ok":true}' : '{"error":{"code":"401","message":"Unauthorized. Access token is missing, invalid, audience is incorrect, or have expired."}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openai/v1/chat/completions`;
    const post = () =>
      client.post({ channel: { ...channel(), type: 'azure', keys: [ENTRA_KEY] }, key: ENTRA_KEY, url, headers: { 'content-type': 'application/json' }, body: '{"model":"m"}', signal: new AbortController().signal });
    const close = async () => {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    };
    return { post, seen, close, minted: () => minted };
  }

  it('mints afresh and sends once more: a stale token is no reason to disable the key', async () => {
    const cloud = await setUp((bearer) => (bearer === 'Bearer tok-1' ? 401 : 200));
    try {
      const response = await cloud.post();
      expect(response.statusCode).toBe(200);
      expect(await response.body.text()).toBe('{"ok":true}');
      expect(cloud.seen).toEqual(['Bearer tok-1', 'Bearer tok-2']);
      // The fresh token is kept for the next call.
      await (await cloud.post()).body.text();
      expect(cloud.seen.at(-1)).toBe('Bearer tok-2');
      expect(cloud.minted()).toBe(2);
    } finally {
      await cloud.close();
    }
  });

  it("answers the second 401 as it came (the key's to judge), after one resend only", async () => {
    const cloud = await setUp(() => 401);
    try {
      const response = await cloud.post();
      expect(response.statusCode).toBe(401);
      expect(await response.body.text()).toContain('Unauthorized');
      expect(cloud.seen).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    } finally {
      await cloud.close();
    }
  });
});
