import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawnRelay, type SpawnedRelay } from '../testing/spawn-relay';
import { adminCall, channelAndToken } from '../testing/spawned-setup';

const UPSTREAM_KEY = 'sk-upstream-nested';
const LEVELS = 5_000;

/** `{"a":{"a":…{}}}` nested `levels` deep, built as text (JSON.stringify would overflow). */
const nestedJson = (levels: number): string => `${'{"a":'.repeat(levels)}{}${'}'.repeat(levels)}`;

/** A chat body whose one tool's `parameters` is nested LEVELS deep (about 30 KB). */
function nestedToolsBody(stream: boolean): string {
  const head = JSON.stringify({ model: 'gpt-4o', stream, messages: [{ role: 'user', content: 'look this up' }] });
  const tools = `[{"type":"function","function":{"name":"lookup","parameters":${nestedJson(LEVELS)}}}]`;
  return `${head.slice(0, -1)},"tools":${tools}}`;
}

const chunk = (delta: object, finish: string | null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/**
 * An OpenAI-compatible upstream that never reports usage, so the relay has to estimate it —
 * from the tools too, which is where JSON.stringify threw and took the process down. (The
 * simulator cannot stand in: a schema this deep makes it fail with its own 500.)
 */
async function startUsagelessUpstream(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (piece: string) => (text += piece));
    req.on('end', () => {
      if (text.includes('"stream":true')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`${chunk({ role: 'assistant', content: 'Hi there' }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`);
        return;
      }
      const message = { role: 'assistant', content: 'Hi there' };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-4o', choices: [{ index: 0, message, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('issue 10 defect 2: process crash from nested tool schemas', () => {
  let relay: SpawnedRelay;
  let upstream: Awaited<ReturnType<typeof startUsagelessUpstream>>;
  let key: string;

  beforeAll(async () => {
    upstream = await startUsagelessUpstream();
    relay = await spawnRelay();
    ({ key } = await channelAndToken(relay, upstream.baseUrl, UPSTREAM_KEY));
  }, 30_000);
  afterAll(async () => {
    await relay?.close();
    await upstream?.close();
  });

  const chat = (body: string) =>
    fetch(`${relay.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });

  it('answers 400 naming the field, 7 times streamed and not, and the process keeps serving', async () => {
    expect(nestedToolsBody(true).length).toBeGreaterThan(25_000);
    for (let i = 0; i < 7; i++) {
      for (const stream of [true, false]) {
        const response = await chat(nestedToolsBody(stream));
        const text = await response.text();
        // Let a crash, if any, happen before looking at the answer.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(relay.child.exitCode).toBeNull();
        expect(response.status).toBe(400);
        const body = JSON.parse(text) as { error: { type: string; code: string; param: string } };
        expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'nesting_too_deep' });
        expect(body.error.param).toMatch(/^tools\[0\]\.function\.parameters\.a\.a.*…$/);
      }
    }

    // The tokenizer loads on first use: give a late crash its time.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const normal = await chat(JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] }));
    expect(normal.status).toBe(200);
    expect(relay.child.exitCode).toBeNull();
    expect(relay.output()).not.toContain('RangeError');
  }, 30_000);

  it('answers 400 to assistants created or changed with nested tools (a 500 before)', async () => {
    const tools = `[{"type":"function","function":{"name":"lookup","parameters":${nestedJson(LEVELS)}}}]`;
    const send = (method: string, path: string, body: string) =>
      fetch(`${relay.url}${path}`, { method, headers: { authorization: `Bearer ${relay.adminKey}`, 'content-type': 'application/json' }, body });

    const created = await send('POST', '/api/assistants', `{"name":"deep","tools":${tools}}`);
    expect(created.status).toBe(400);
    expect(await created.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'nesting_too_deep' } });

    const { id } = await adminCall<{ id: string }>(relay, 'POST', '/api/assistants', { name: 'shallow' });
    const changed = await send('PATCH', `/api/assistants/${id}`, `{"tools":${tools}}`);
    expect(changed.status).toBe(400);
    expect(await changed.json()).toMatchObject({ error: { code: 'nesting_too_deep', param: expect.stringMatching(/^tools\[0\]/) } });
    expect(relay.child.exitCode).toBeNull();
  }, 30_000);
});
