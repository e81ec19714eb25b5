import type { ServerResponse } from 'node:http';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { collectUntil, watchSets } from './watch-garbage';
import type { UpstreamCall } from '../../src/pipeline/attempt';
import type { RelayedRequest } from '../../src/pipeline/relay-chat-completion';

/** What the pipeline made for each request, watched without holding it. */
const made: { calls: Array<WeakRef<UpstreamCall<unknown>>>; relayed: Array<WeakRef<RelayedRequest>> } = { calls: [], relayed: [] };

// Plain functions, not jest.fn: a mock's recorded arguments would hold what is watched.
jest.mock('../../src/pipeline/attempt', () => {
  const actual: typeof import('../../src/pipeline/attempt') = jest.requireActual('../../src/pipeline/attempt');
  return {
    ...actual,
    attempt: (...args: Parameters<typeof actual.attempt>) => {
      made.calls.push(new WeakRef(args[2]));
      return actual.attempt(...args);
    },
  };
});
jest.mock('../../src/pipeline/relay-chat-completion', () => {
  const actual: typeof import('../../src/pipeline/relay-chat-completion') = jest.requireActual('../../src/pipeline/relay-chat-completion');
  return {
    ...actual,
    relayChatCompletion: (...args: Parameters<typeof actual.relayChatCompletion>) => {
      made.relayed.push(new WeakRef(args[1]));
      return actual.relayChatCompletion(...args);
    },
  };
});

/** A coding agent's turn: ~100 KB of earlier conversation, then a question answered slowly. */
function agentTurn(): Record<string, unknown> {
  const history = Array.from({ length: 50 }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `turn ${index}: ${'the relay keeps one pool of upstream connections per channel. '.repeat(32)}`,
  }));
  const question = Array.from({ length: 30 }, (_, index) => `word${index}`).join(' ');
  return { model: 'gpt-4o', stream: true, messages: [...history, { role: 'user', content: question }], x_sim: { latency_ms_per_token: 40 } };
}

describe('issue 30: a streaming answer does not hold its request', () => {
  let e2e: E2eRelayWithSim;

  beforeEach(async () => {
    e2e = await startRelayWithSim();
  });
  afterEach(async () => {
    await e2e.close();
  });

  it('lets go of the call, the relayed request and what they hold (the pipeline, the adapter, the request as sent) while the answer streams', async () => {
    made.calls.length = 0;
    made.relayed.length = 0;
    const response = await e2e.postChat(agentTurn());
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    expect(made.calls).toHaveLength(1);
    expect(made.relayed).toHaveLength(1);
    await collectUntil(() => !made.calls[0]?.deref() && !made.relayed[0]?.deref());
    expect({ call: made.calls[0]?.deref(), relayed: made.relayed[0]?.deref() }).toEqual({ call: undefined, relayed: undefined });
    const wordsAtThen = (text.match(/word\d+/g) ?? []).length;

    for (let piece = await reader.read(); !piece.done; piece = await reader.read()) text += decoder.decode(piece.value, { stream: true });
    // Still streaming then; and what the end needs (the usage, the prompt counted from the hub request) was kept.
    expect(wordsAtThen).toBeLessThan(10);
    expect(text.match(/word\d+/g)).toHaveLength(30);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, stream: true, completionTokens: expect.any(Number) });
    expect(row!.promptTokens).toBeGreaterThan(15_000);
  });

  it("lets go of the caller's bytes once the stream is the caller's, and still relays and counts it all", async () => {
    // The bytes the body parser keeps in `res.locals.rawBody`, watched without holding them.
    const kept: Array<WeakRef<Buffer>> = [];
    e2e.server.prependListener('request', (_req, res: ServerResponse) => {
      const locals = (res as unknown as { locals: Record<string, unknown> }).locals;
      watchSets(locals, 'rawBody', (value) => {
        if (Buffer.isBuffer(value)) kept.push(new WeakRef(value));
      });
    });
    const body = agentTurn();
    const sentBytes = Buffer.byteLength(JSON.stringify(body));
    expect(sentBytes).toBeGreaterThan(100_000);
    const response = await e2e.postChat(body);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    expect(text).toContain('data: ');

    await collectUntil(() => kept.length > 0 && !kept[0]?.deref());
    expect(kept).toHaveLength(1);
    expect(kept[0]?.deref()).toBeUndefined();
    const wordsAtThen = (text.match(/word\d+/g) ?? []).length;

    for (let piece = await reader.read(); !piece.done; piece = await reader.read()) text += decoder.decode(piece.value, { stream: true });
    // The answer was still streaming when the bytes were let go: most of it came after.
    const words = text.match(/word\d+/g) ?? [];
    expect(words).toHaveLength(30);
    expect(wordsAtThen).toBeLessThan(10);
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const upstreamBody = e2e.sim.requests[0]?.body as { messages?: unknown[] } | undefined;
    expect(upstreamBody?.messages).toEqual(body['messages']);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, stream: true });
    expect(row!.promptTokens).toBeGreaterThan(15_000);
  });
});
