import type { ChatCompletionRequest } from '@chat-relay/contract';
import { decideAnswer, type UpstreamSim } from '@chat-relay/upstream-sim';
import OpenAI from 'openai';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { startTcpTap, type TcpTap } from './tcp-tap';

type CreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;

const LATENCY_MS = 100;
const longText = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
/** Slow on purpose: `x_sim` is an unknown field the relay forwards to the simulator. */
const slowRequest = {
  model: 'gpt-4o',
  messages: [{ role: 'user', content: longText }],
  x_sim: { latency_ms_per_token: LATENCY_MS },
};

function fullCompletionTokens(recordedBody: unknown): number {
  const plan = decideAnswer(recordedBody as ChatCompletionRequest);
  if (plan.kind === 'invalid') throw new Error(plan.message);
  return plan.usage.completion_tokens;
}

/** Resolves with how long after `since` the upstream connection closed; rejects after `limitMs`. */
async function upstreamClosedWithin(tap: TcpTap, since: number, limitMs: number): Promise<number> {
  const connection = tap.connections[0];
  if (!connection) throw new Error('the relay never connected upstream');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`upstream connection still open after ${limitMs} ms`)), limitMs);
  });
  try {
    await Promise.race([connection.closed, timeout]);
  } finally {
    clearTimeout(timer);
  }
  return connection.closedAt! - since;
}

describe('e2e: a client that disconnects aborts the upstream request', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;
  let tap: TcpTap;
  let client: OpenAI;

  beforeEach(async () => {
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
    tap = await startTcpTap(sim.port);
    await e2e.addChannel(`http://127.0.0.1:${tap.port}/v1`);
    client = e2e.client();
  });
  afterEach(async () => {
    await e2e.close();
    await tap.close();
  });

  it('streamed: aborting after the first chunks closes the upstream socket at once and logs 499', async () => {
    const abort = new AbortController();
    const stream = await client.chat.completions.create({ ...slowRequest, stream: true } as CreateParams, {
      signal: abort.signal,
    });
    let received = 0;
    for await (const _chunk of stream) {
      received += 1;
      if (received === 3) break;
    }
    const abortedAt = Date.now();
    abort.abort();

    const fullTokens = fullCompletionTokens(sim.requests[0]?.body);
    expect(fullTokens * LATENCY_MS).toBeGreaterThan(3000);
    expect(await upstreamClosedWithin(tap, abortedAt, 1000)).toBeLessThan(1000);

    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 499, errorCode: 'client_closed', stream: true });
    expect(row!.completionTokens).toBeLessThan(fullTokens);
  });

  it('non-streamed: aborting while waiting for the answer closes the upstream socket and logs 499', async () => {
    const abort = new AbortController();
    const pending = client.chat.completions.create(slowRequest as OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, {
      signal: abort.signal,
    });
    const settled = pending.then(
      () => 'resolved',
      (error: unknown) => (error instanceof OpenAI.APIUserAbortError ? 'aborted' : error),
    );
    for (let waited = 0; sim.requests.length === 0 && waited < 2000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(sim.requests).toHaveLength(1);
    const abortedAt = Date.now();
    abort.abort();

    expect(await settled).toBe('aborted');
    expect(await upstreamClosedWithin(tap, abortedAt, 1000)).toBeLessThan(1000);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 499, stream: false });
  });
});
