import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import fs from 'node:fs';
import net from 'node:net';
import { spawnRelay, type SpawnedRelay } from '../testing/spawn-relay';
import { channelAndToken } from '../testing/spawned-setup';

const SIM_KEY = 'sk-sim-slow';
const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 600;
const CONNECTIONS = 50;

interface SlowClient {
  connected: Promise<void>;
  /** Everything the relay sent, once it closed the connection. */
  answer: Promise<{ text: string; closedAfterMs: number }>;
  stop(): void;
}

/** A caller that sends `head` at once, then one more byte every 100 ms and never finishes. */
function slowClient(port: number, head: string, trickle: string): SlowClient {
  const socket = net.connect(port, '127.0.0.1');
  const openedAt = Date.now();
  let text = '';
  socket.setEncoding('utf8').on('data', (piece: string) => (text += piece));
  socket.on('error', () => undefined);
  const connected = new Promise<void>((resolve) => socket.once('connect', () => (socket.write(head), resolve())));
  const timer = setInterval(() => {
    if (socket.writable) socket.write(trickle);
  }, 100);
  const answer = new Promise<{ text: string; closedAfterMs: number }>((resolve) =>
    socket.once('close', () => {
      clearInterval(timer);
      resolve({ text, closedAfterMs: Date.now() - openedAt });
    }),
  );
  return { connected, answer, stop: () => (clearInterval(timer), socket.destroy()) };
}

const openFds = (pid: number) => fs.readdirSync(`/proc/${pid}/fd`).length;

describe('issue 10 defect 8: slow request bodies held forever', () => {
  let sim: UpstreamSim;
  let relay: SpawnedRelay;
  let key: string;
  let port: number;

  beforeAll(async () => {
    sim = await startUpstreamSim({ acceptedKeys: [SIM_KEY] });
    relay = await spawnRelay({ env: { RELAY_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), RELAY_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
    ({ key } = await channelAndToken(relay, sim.baseUrl, SIM_KEY));
    port = Number(new URL(relay.url).port);
  }, 30_000);
  afterAll(async () => {
    await relay?.close();
    await sim?.close();
  });

  const expect408 = (text: string) => {
    const [head = '', body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(body)).toEqual({
      error: { message: expect.stringContaining('not received in time'), type: 'invalid_request_error', param: null, code: 'request_timeout' },
    });
  };

  it(`answers ${CONNECTIONS} authenticated slow bodies 408 and closes them within the timeout, file descriptors back down`, async () => {
    const before = openFds(relay.child.pid as number);
    const head =
      `POST /v1/chat/completions HTTP/1.1\r\nHost: relay\r\nAuthorization: Bearer ${key}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"model":"gpt-4o","messages":[{"role":"user","content":"';
    const clients = Array.from({ length: CONNECTIONS }, () => slowClient(port, head, 'a'));
    try {
      await Promise.all(clients.map((client) => client.connected));
      // Held open by the relay meanwhile (the bodies are far from complete).
      let during = 0;
      for (let waited = 0; waited < 300 && during < before + CONNECTIONS; waited += 20) {
        during = openFds(relay.child.pid as number);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(during).toBeGreaterThanOrEqual(before + CONNECTIONS);
      const answers = await Promise.all(clients.map((client) => client.answer));
      for (const answer of answers) {
        expect408(answer.text);
        expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1000);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(openFds(relay.child.pid as number)).toBeLessThanOrEqual(before + 2);
    } finally {
      for (const client of clients) client.stop();
    }
  }, 20_000);

  it('answers headers that never end 408 within the headers timeout', async () => {
    const client = slowClient(port, 'GET /healthz HTTP/1.1\r\nHost: relay\r\n', 'X-Slow: 1\r\n');
    const answer = await client.answer;
    expect408(answer.text);
    expect(answer.closedAfterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 1000);
  });

  it('does not cut a streamed answer that lasts longer than the request timeout', async () => {
    const startedAt = Date.now();
    const response = await fetch(`${relay.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: `${'many words here '.repeat(8)}[sim:latency=60]` }] }),
    });
    const text = await response.text();
    expect(Date.now() - startedAt).toBeGreaterThan(REQUEST_TIMEOUT_MS * 2);
    expect(response.status).toBe(200);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});
