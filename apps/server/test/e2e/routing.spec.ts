import type { UpstreamSim } from '@chat-relay/upstream-sim';
import OpenAI from 'openai';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { collect } from './weather-tools';

const hello = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Hello there' }] };

const chatCount = (sim: UpstreamSim) => sim.requests.filter((request) => request.path === '/v1/chat/completions').length;

describe('e2e: routing between channels and retries', () => {
  let e2e: E2eRelay;
  let client: OpenAI;
  let primary: UpstreamSim;
  let backup: UpstreamSim;

  beforeEach(async () => {
    e2e = await startE2eRelay();
    client = e2e.client();
    primary = await e2e.startSim();
    backup = await e2e.startSim();
  });
  afterEach(() => e2e.close());

  it('sends all traffic to the higher priority tier', async () => {
    await e2e.addChannel(primary.baseUrl, { name: 'primary', priority: 10 });
    await e2e.addChannel(backup.baseUrl, { name: 'backup', priority: 0, weight: 100 });

    for (let count = 0; count < 8; count++) await client.chat.completions.create(hello);

    expect(chatCount(primary)).toBe(8);
    expect(chatCount(backup)).toBe(0);
  });

  it.each([false, true])('fails over to the lower tier on an upstream 503 (stream: %s)', async (stream) => {
    await e2e.addChannel(primary.baseUrl, { name: 'primary', priority: 10 });
    const lower = await e2e.addChannel(backup.baseUrl, { name: 'backup', priority: 0 });
    primary.failNext({ kind: 'status', status: 503 });

    if (stream) {
      const chunks = await collect(await client.chat.completions.create({ ...hello, stream: true }));
      expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('You said: Hello there');
    } else {
      const completion = await client.chat.completions.create(hello);
      expect(completion.choices[0]?.message.content).toBe('You said: Hello there');
    }

    expect([chatCount(primary), chatCount(backup)]).toEqual([1, 1]);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, attempts: 2, channelId: lower.id, stream });
  });

  it('splits traffic inside a tier by weight (1 : 3)', async () => {
    await e2e.addChannel(primary.baseUrl, { name: 'light', weight: 1 });
    await e2e.addChannel(backup.baseUrl, { name: 'heavy', weight: 3 });

    const total = 200;
    for (let sent = 0; sent < total; sent += 20) {
      await Promise.all(Array.from({ length: 20 }, () => client.chat.completions.create(hello)));
    }

    const light = chatCount(primary);
    const heavy = chatCount(backup);
    expect(light + heavy).toBe(total);
    expect(light).toBeGreaterThan(0);
    expect(heavy / total).toBeGreaterThan(0.6);
    expect(heavy / total).toBeLessThan(0.9);
    // 200 requests: bounded, but more than the default 5 s on a loaded CI machine.
  }, 20_000);

  it('never routes to a disabled channel, even at the highest priority', async () => {
    const disabled = await e2e.startSim();
    await e2e.addChannel(disabled.baseUrl, { name: 'off', priority: 100, enabled: false });
    await e2e.addChannel(primary.baseUrl, { name: 'on' });

    for (let count = 0; count < 5; count++) await client.chat.completions.create(hello);

    expect(chatCount(disabled)).toBe(0);
    expect(chatCount(primary)).toBe(5);
  });

  it('leaves a 502 retryable for the SDK: its own retry succeeds and each attempt is logged', async () => {
    await e2e.addChannel(primary.baseUrl, { name: 'only' });
    primary.failNext({ kind: 'status', status: 500 });

    const completion = await e2e.client({ maxRetries: 1 }).chat.completions.create(hello);

    expect(completion.choices[0]?.message.content).toBe('You said: Hello there');
    expect(chatCount(primary)).toBe(2);
    const rows = await e2e.usageRows(2);
    expect(rows.map((row) => [row.status, row.attempts])).toEqual([
      [502, 1],
      [200, 1],
    ]);
  });

  it('does not retry once the first byte of a stream has been sent', async () => {
    await e2e.addChannel(primary.baseUrl, { name: 'primary', priority: 10 });
    await e2e.addChannel(backup.baseUrl, { name: 'backup', priority: 0 });
    primary.failNext({ kind: 'cut' });

    const stream = await client.chat.completions.create({ ...hello, stream: true });
    const received: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
      })(),
    ).rejects.toBeInstanceOf(OpenAI.APIError);

    expect(received.length).toBeGreaterThan(0);
    expect(chatCount(primary)).toBe(1);
    expect(chatCount(backup)).toBe(0);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ attempts: 1, stream: true });
    expect(row?.errorCode).toMatch(/^(stream_truncated|upstream_connection_error)$/);
  });
});
