import { startUpstreamSim, type UpstreamSim } from '@chat-relay/upstream-sim';
import { spawnRelay, type SpawnedRelay } from '../testing/spawn-relay';
import { adminCall, channelAndToken } from '../testing/spawned-setup';

const SIM_KEY = 'sk-sim-sigterm';
const STREAMS = 20;
const GRACE_MS = 400;
/** Unstreamed requests still waiting for their answer when the grace ends. */
const WAITING = 3;

interface Page<T> {
  data: T[];
  total: number;
}

/** A streamed request read to its end; `error` is how reading failed (a reset), if it did. */
async function stream(relay: SpawnedRelay, key: string, i: number, started: () => void): Promise<{ status: number; text: string; error?: string }> {
  const response = await fetch(`${relay.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    // 200 ms a token over ~33 tokens: more than 6 s, far longer than the grace.
    body: JSON.stringify({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: `stream ${i}: ${'a long answer in many small words '.repeat(4)} [sim:latency=200]` }],
    }),
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (text === '') started();
      text += decoder.decode(chunk.value, { stream: true });
    }
    return { status: response.status, text };
  } catch (error) {
    return { status: response.status, text, error: String((error as { cause?: unknown }).cause ?? error) };
  }
}

describe('issue 10 defect 6: long streams cut by SIGTERM', () => {
  let sim: UpstreamSim;
  let relay: SpawnedRelay | undefined;
  let restarted: SpawnedRelay | undefined;

  beforeAll(async () => (sim = await startUpstreamSim({ acceptedKeys: [SIM_KEY] })));
  afterAll(async () => {
    await restarted?.close();
    await relay?.close();
    await sim.close();
  });

  it('ends every stream with an error event and a clean end, answers waiting requests 503, exits 0, and keeps a row and the quota for each', async () => {
    relay = await spawnRelay({ env: { RELAY_SHUTDOWN_GRACE_MS: String(GRACE_MS) } });
    const token = await channelAndToken(relay, sim.baseUrl, SIM_KEY);

    let started = 0;
    let allStarted: () => void = () => undefined;
    const streaming = new Promise<void>((resolve) => (allStarted = resolve));
    const answers = Array.from({ length: STREAMS }, (_, i) =>
      stream(relay as SpawnedRelay, token.key, i, () => {
        if (++started === STREAMS) allStarted();
      }),
    );
    const waiting = Array.from({ length: WAITING }, (_, i) =>
      fetch(`${(relay as SpawnedRelay).url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: `waiting ${i}: ${'slow words '.repeat(12)} [sim:latency=200]` }] }),
      }).then(async (response) => ({ status: response.status, connection: response.headers.get('connection'), body: (await response.json()) as unknown })),
    );
    await streaming;
    // The waiting ones under way too: they have reached the upstream.
    for (let waited = 0; sim.requests.length < STREAMS + WAITING && waited < 5000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const signalledAt = Date.now();
    relay.child.kill('SIGTERM');

    const results = await Promise.all(answers);
    // Ended after the grace, long before the streams would have finished on their own.
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(GRACE_MS - 50);
    expect(Date.now() - signalledAt).toBeLessThan(4000);
    expect(await relay.exited).toBe(0);
    for (const result of results) {
      expect(result.error).toBeUndefined();
      expect(result.status).toBe(200);
      const events = result.text.split('\n\n').filter(Boolean);
      expect(events.length).toBeGreaterThan(1);
      expect(JSON.parse((events.at(-1) as string).slice('data: '.length))).toEqual({
        error: { message: expect.any(String), type: 'server_error', param: null, code: 'server_shutting_down' },
      });
      expect(result.text).not.toContain('[DONE]');
    }
    for (const answer of await Promise.all(waiting)) {
      expect(answer).toEqual({
        status: 503,
        connection: 'close',
        body: { error: { message: expect.any(String), type: 'server_error', param: null, code: 'server_shutting_down' } },
      });
    }

    restarted = await spawnRelay({ dataDir: relay.dataDir });
    const logs = await adminCall<Page<{ token_id: number; status: number; error_code: string | null; cost: number; completion_tokens: number; stream: boolean }>>(
      restarted,
      'GET',
      `/api/logs?token_id=${token.id}&per_page=100`,
    );
    expect(logs.total).toBe(STREAMS + WAITING);
    const streamed = logs.data.filter((row) => row.stream);
    expect(streamed).toHaveLength(STREAMS);
    for (const row of streamed) {
      expect(row).toMatchObject({ status: 200, error_code: 'server_shutting_down' });
      // Charged for what was delivered before the end.
      expect(row.completion_tokens).toBeGreaterThan(0);
      expect(row.cost).toBeGreaterThan(0);
    }
    for (const row of logs.data.filter((entry) => !entry.stream)) expect(row).toMatchObject({ status: 503, error_code: 'server_shutting_down' });
    const { quota_used } = await adminCall<{ quota_used: number }>(restarted, 'GET', `/api/tokens/${token.id}`);
    expect(quota_used).toBe(logs.data.reduce((sum, row) => sum + row.cost, 0));
  }, 30_000);
});
