import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawnRelay, type SpawnedRelay } from '../testing/spawn-relay';

/** The JSON text of a schema nested `depth` levels, written by hand: `JSON.stringify` of it overflows the stack. */
function nestedSchemaJson(depth: number): string {
  return '{"type":"object","properties":{"a":'.repeat(depth) + '{"type":"string"}' + '}}'.repeat(depth);
}

const firstChunk = {
  id: 'chatcmpl-cut',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }],
};

/**
 * An upstream whose streams stop after one chunk, before any usage — so the relay must count
 * the prompt itself. Not the simulator: it cannot read a schema this deep (it answers 500).
 */
async function startCutStreamUpstream(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify(firstChunk)}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface LogRow {
  status: number;
  prompt_tokens: number;
  usage_estimated: boolean;
}

/** The usage log as the admin API lists it, once it holds a row (or after 30 s). */
async function firstRows(relay: SpawnedRelay): Promise<LogRow[]> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const response = await fetch(`${relay.url}/api/logs`, { headers: { authorization: `Bearer ${relay.adminKey}` } });
    const page = (await response.json()) as { data: LogRow[] };
    if (page.data.length > 0) return page.data;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return [];
}

async function rowWritten(relay: SpawnedRelay): Promise<string> {
  return (await firstRows(relay)).length > 0 ? 'row written' : 'no row after 30 s';
}

/** Asks `/healthz` back to back until stopped; the slowest answer it saw. */
function pollHealth(url: string) {
  let stopped = false;
  let slowestMs = 0;
  const done = (async () => {
    while (!stopped) {
      const started = Date.now();
      await (await fetch(`${url}/healthz`)).arrayBuffer();
      slowestMs = Math.max(slowestMs, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await done;
      return slowestMs;
    },
  };
}

async function startRelayOn(upstreamUrl: string): Promise<{ relay: SpawnedRelay; token: string }> {
  const relay = await spawnRelay();
  const channel = { name: 'cut', type: 'openai', base_url: upstreamUrl, keys: ['sk-upstream'], models: ['gpt-4o'] };
  expect((await post(`${relay.url}/api/channels`, relay.adminKey, JSON.stringify(channel))).status).toBe(201);
  const created = await post(`${relay.url}/api/tokens`, relay.adminKey, JSON.stringify({ name: 'crash' }));
  return { relay, token: ((await created.json()) as { key: string }).key };
}

async function post(url: string, key: string, body: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
}

/** The bundled relay in front of the cut-stream upstream, started once for the enclosing describe. */
function relayOnCutStreams(): () => { relay: SpawnedRelay; token: string } {
  let relay: SpawnedRelay | undefined;
  let upstream: Awaited<ReturnType<typeof startCutStreamUpstream>> | undefined;
  let token = '';
  beforeAll(async () => {
    upstream = await startCutStreamUpstream();
    ({ relay, token } = await startRelayOn(upstream.baseUrl));
  }, 60_000);
  afterAll(async () => {
    await relay?.close();
    await upstream?.close();
  });
  return () => {
    if (!relay) throw new Error('relay not started');
    return { relay, token };
  };
}

describe('issue 10 defect 2: no rejection inside usage accounting takes the process down (the bundled relay in its own process)', () => {
  const started = relayOnCutStreams();

  it('tools nested 10,000 levels on a stream whose usage must be estimated: the process stays up and answers', async () => {
    const { relay, token } = started();
    const template = JSON.stringify({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Hello there' }],
      tools: [{ type: 'function', function: { name: 'deep', parameters: '<schema>' } }],
      stream: true,
    });
    const response = await post(`${relay.url}/v1/chat/completions`, token, template.replace('"<schema>"', nestedSchemaJson(10_000)));
    // A broken stream today; a 400 once bodies this deep are refused at the edge.
    await response.text();
    // The row comes once the prompt is counted (the tokenizer loads first): wait for it, or the exit.
    const outcome = await Promise.race([relay.exited.then((code) => `exited ${code}`), rowWritten(relay)]);
    expect(outcome).toBe('row written');
    expect(relay.child.exitCode).toBeNull();
    expect((await fetch(`${relay.url}/healthz`)).status).toBe(200);
    const after = await post(`${relay.url}/v1/chat/completions`, token, JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream: true }));
    expect(after.status).toBe(200);
    await after.text();
    expect(relay.output()).not.toContain('Maximum call stack size exceeded');
  }, 60_000);
});

describe('issue 10 defect 1: event loop frozen by usage estimation (the bundled relay in its own process)', () => {
  const started = relayOnCutStreams();

  it('a 6 MB prompt without spaces, usage estimated: /healthz keeps answering, the row is written, SIGTERM is obeyed', async () => {
    const { relay, token } = started();
    const prompt = 'aZ3kQ9xW7mP2vB8nL4cR6tY1uH5jD0sF'.repeat(6_000_000 / 32);
    // Load the tokenizer first (a one-time cost of the process), with a small estimated request.
    await (await post(`${relay.url}/v1/chat/completions`, token, JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream: true }))).text();
    expect(await firstRows(relay)).toHaveLength(1);

    const poller = pollHealth(relay.url);
    const response = await post(`${relay.url}/v1/chat/completions`, token, JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: prompt }], stream: true }));
    await response.text();
    let rows: LogRow[] = [];
    for (const deadline = Date.now() + 30_000; rows.length < 2 && Date.now() < deadline; ) {
      rows = await firstRows(relay);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const slowestMs = await poller.stop();

    expect(rows).toHaveLength(2);
    const row = rows.find((entry) => entry.prompt_tokens > 1000);
    expect(row).toMatchObject({ usage_estimated: true });
    expect(row!.prompt_tokens).toBeGreaterThanOrEqual(6_000_000 / 8);
    expect(row!.prompt_tokens).toBeLessThanOrEqual(6_000_000 + 7);
    // Before the fix, the count held the event loop for minutes.
    expect(slowestMs).toBeLessThan(1500);
    relay.child.kill('SIGTERM');
    const exit = await Promise.race([relay.exited, new Promise((resolve) => setTimeout(() => resolve('still running after 15 s'), 15_000))]);
    expect(exit).toBe(0);
  }, 90_000);
});
