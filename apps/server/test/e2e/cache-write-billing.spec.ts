import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatCompletionRequest } from '@chat-relay/contract';
import { reservationOf } from './reservation-of';
import { readFixture } from '../testing/fixtures';
import { patchToken } from '../testing/patch-token';
import { startE2eRelay, type E2eRelay } from './e2e-relay';

const MODEL = 'claude-sonnet-4-5';
/** claude-sonnet-4-5's list prices (micro-USD per million): a 5-minute cache write costs 1.25 × input. */
const PRICE = { model: MODEL, input: 3_000_000, output: 15_000_000, cache_read: 300_000, cache_write: 3_750_000 };
const CACHE_WRITE = 20_000;
const USED_BEFORE = 1_000_000;

/**
 * The recorded answers (usage: input_tokens 12, no cache) as a first request with a 20,000-token
 * cached system prompt gets them: no recording in test-fixtures has a cache write, so the
 * recorded counts are edited here, in the message and in the stream's message_start and
 * message_delta alike (the API repeats them in both).
 */
const withCacheWrite = (recorded: string) =>
  recorded
    .replaceAll('"cache_creation_input_tokens":0', `"cache_creation_input_tokens":${CACHE_WRITE}`)
    .replaceAll('"ephemeral_5m_input_tokens":0', `"ephemeral_5m_input_tokens":${CACHE_WRITE}`);
const message = withCacheWrite(JSON.stringify(JSON.parse(readFixture('anthropic/message-text.json'))));
const streamEvents = withCacheWrite(readFixture('anthropic/message-text.stream.jsonl'))
  .split('\n')
  .filter((line) => line.trim() !== '');

/** A tiny Anthropic upstream on 127.0.0.1, port 0, answering every Messages call with the answers above. */
async function startAnthropicUpstream(): Promise<{ baseUrl: string; calls: number; close(): Promise<void> }> {
  const upstream = { baseUrl: '', calls: 0, close: async () => undefined };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      upstream.calls += 1;
      if (req.method !== 'POST' || req.url !== '/v1/messages') {
        res.writeHead(404).end();
        return;
      }
      if ((JSON.parse(body) as { stream?: boolean }).stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(message);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const data of streamEvents) res.write(`event: ${(JSON.parse(data) as { type: string }).type}\ndata: ${data}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  upstream.close = () =>
    new Promise<undefined>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve(undefined));
    });
  return upstream;
}

async function quotaUsed(e2e: E2eRelay, accountId: number): Promise<{ token: number; account: number }> {
  await e2e.relay.services.recorder.flush();
  const token = (await e2e.relay.storage.tokens.get(e2e.tokenId))!.quotaUsed;
  const account = (await e2e.relay.storage.accounts.get(accountId))!.quotaUsed;
  return { token, account };
}

describe('peer bug: cache-write tokens never billed', () => {
  let e2e: E2eRelay;
  let upstream: Awaited<ReturnType<typeof startAnthropicUpstream>>;
  let accountId: number;

  beforeEach(async () => {
    e2e = await startE2eRelay();
    upstream = await startAnthropicUpstream();
    await e2e.addChannel(upstream.baseUrl, { type: 'anthropic', models: [MODEL] });
    const response = await fetch(`${e2e.url}/api/prices`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: [PRICE] }),
    });
    expect(response.status).toBe(200);
    accountId = (await e2e.relay.storage.tokens.get(e2e.tokenId))!.accountId;
    await e2e.relay.storage.tokens.update(e2e.tokenId, { quotaLimit: 1_000_000_000, quotaUsed: USED_BEFORE });
    await e2e.relay.storage.accounts.update(accountId, { quotaLimit: 1_000_000_000, quotaUsed: USED_BEFORE });
  });
  afterEach(async () => {
    await e2e.close();
    await upstream.close();
  });

  // 12 uncached × 3 + 20,000 written × 3.75 + 29 (30 streamed) out × 15, in micro-USD: the write alone is 75,000.
  it.each([
    ['unstreamed', false, 29, 36 + 75_000 + 435],
    ['streamed', true, 30, 36 + 75_000 + 450],
  ])('%s: the usage row counts the cache write within the prompt, and the quota is charged it at the cache_write price', async (_case, stream, completionTokens, cost) => {
    const response = await e2e.postChat({
      model: MODEL,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
      messages: [{ role: 'user', content: 'Hello, how are you?' }],
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    // The caller's usage says so too, in the OpenAI shape.
    expect(text).toContain(`"prompt_tokens_details":{"cached_tokens":0,"cache_write_tokens":${CACHE_WRITE}}`);

    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({
      status: 200,
      requestedModel: MODEL,
      promptTokens: 12 + CACHE_WRITE,
      completionTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: CACHE_WRITE,
      usageEstimated: false,
      cost,
    });
    expect(await quotaUsed(e2e, accountId)).toEqual({ token: USED_BEFORE + cost, account: USED_BEFORE + cost });

    const logs = await fetch(`${e2e.url}/api/logs`, { headers: { authorization: `Bearer ${e2e.relay.adminKey}` } });
    const [entry] = ((await logs.json()) as { data: Array<Record<string, unknown>> }).data;
    expect(entry).toMatchObject({ prompt_tokens: 12 + CACHE_WRITE, cache_read_tokens: 0, cache_write_tokens: CACHE_WRITE, cost });
  });

  /** The reservation a refused request said it needed (micro-USD), from its message. */
  const reservedBy = async (response: Response): Promise<number> => {
    const { error } = (await response.json()) as { error: { message: string } };
    return Math.round(Number(/reserves (\d+\.\d{6}) USD/.exec(error.message)?.[1]) * 1_000_000);
  };
  const postMessages = (marked: boolean) =>
    fetch(`${e2e.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': e2e.token, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: MODEL,
        max_tokens: 100,
        system: [{ type: 'text', text: 'You are terse.', ...(marked ? { cache_control: { type: 'ephemeral' } } : {}) }],
        messages: [{ role: 'user', content: 'Hello, how are you?' }],
      }),
    });

  it('reserves the prompt at the cache_write price only when the request marks cache writes (issue 28 defect 6)', async () => {
    const body: ChatCompletionRequest = { model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Hello, how are you?' }] };
    const table = { model: MODEL, input: PRICE.input, output: PRICE.output, cacheRead: PRICE.cache_read, cacheWrite: PRICE.cache_write };
    // Unmarked: the prompt at the input price — no provider writes a prompt to its cache unasked.
    const plain = await reservationOf(e2e.relay, body, { price: table });
    expect(await reservationOf(e2e.relay, body, { price: table, cacheWrites: true })).toBeGreaterThan(plain);
    await patchToken(e2e.relay, e2e.tokenId, { quota_limit: USED_BEFORE + plain });
    const admittedPlain = await e2e.postChat(body);
    expect(admittedPlain.status).toBe(200);
    await admittedPlain.text();
    await e2e.usageRows(1);

    // The same prompt marked with cache_control reserves more; what it says it needs admits it, a micro-USD less does not.
    await e2e.relay.storage.tokens.update(e2e.tokenId, { quotaUsed: USED_BEFORE });
    await patchToken(e2e.relay, e2e.tokenId, { quota_limit: USED_BEFORE + 1 });
    const unmarked = await reservedBy(await postMessages(false));
    const marked = await reservedBy(await postMessages(true));
    expect(marked).toBeGreaterThan(unmarked);
    expect(upstream.calls).toBe(1);
    await patchToken(e2e.relay, e2e.tokenId, { quota_limit: USED_BEFORE + marked - 1 });
    expect((await postMessages(true)).status).toBe(402);
    await patchToken(e2e.relay, e2e.tokenId, { quota_limit: USED_BEFORE + marked });
    const admitted = await postMessages(true);
    expect(admitted.status).toBe(200);
    await admitted.text();
    const rows = await e2e.usageRows(6);
    expect(rows.map((row) => row.status)).toEqual([200, 402, 402, 402, 200]);
    // Settled at the real cost, whatever was reserved.
    expect(rows[4]!.cost).toBe(36 + 75_000 + 435);
  });
});
