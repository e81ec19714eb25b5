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

/** Resolves once the usage log holds a row, as the admin API lists it. */
async function rowWritten(relay: SpawnedRelay): Promise<string> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const response = await fetch(`${relay.url}/api/logs`, { headers: { authorization: `Bearer ${relay.adminKey}` } });
    const page = (await response.json()) as { data: unknown[] };
    if (page.data.length > 0) return 'row written';
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return 'no row after 30 s';
}

async function post(url: string, key: string, body: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
}

describe('issue 10 defect 2: no rejection inside usage accounting takes the process down (the bundled relay in its own process)', () => {
  let relay: SpawnedRelay;
  let upstream: Awaited<ReturnType<typeof startCutStreamUpstream>>;
  let token: string;

  beforeAll(async () => {
    upstream = await startCutStreamUpstream();
    relay = await spawnRelay();
    const channel = { name: 'cut', type: 'openai', base_url: upstream.baseUrl, keys: ['sk-upstream'], models: ['gpt-4o'] };
    expect((await post(`${relay.url}/api/channels`, relay.adminKey, JSON.stringify(channel))).status).toBe(201);
    const created = await post(`${relay.url}/api/tokens`, relay.adminKey, JSON.stringify({ name: 'crash' }));
    token = ((await created.json()) as { key: string }).key;
  }, 60_000);
  afterAll(async () => {
    await relay.close();
    await upstream.close();
  });

  it('tools nested 10,000 levels on a stream whose usage must be estimated: the process stays up and answers', async () => {
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
