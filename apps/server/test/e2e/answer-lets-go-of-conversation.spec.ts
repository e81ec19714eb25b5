import type { IncomingMessage } from 'node:http';
import { SIM_KEY, startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { collectUntil, watchSets } from './watch-garbage';
import type { RelayedRequest } from '../../src/pipeline/relay-chat-completion';

/** The conversations the relay parsed for each request (the body as parsed, the request as validated), watched without holding them. */
const parsed: Array<WeakRef<unknown[]>> = [];

// A plain function, not jest.fn: a mock's recorded arguments would hold what is watched.
jest.mock('../../src/pipeline/relay-chat-completion', () => {
  const actual: typeof import('../../src/pipeline/relay-chat-completion') = jest.requireActual('../../src/pipeline/relay-chat-completion');
  return {
    ...actual,
    relayChatCompletion: (...args: Parameters<typeof actual.relayChatCompletion>) => {
      const relayed: RelayedRequest = args[1];
      parsed.push(new WeakRef(relayed.request.messages));
      return actual.relayChatCompletion(...args);
    },
  };
});

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** ~100 KB of earlier conversation, then a question whose answer comes slowly (40 ms a token). */
function longConversation(): { model: string; messages: Array<{ role: string; content: string }>; x_sim: { latency_ms_per_token: number } } {
  const history = Array.from({ length: 50 }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `turn ${index}: ${'the relay keeps one pool of upstream connections per channel. '.repeat(32)}`,
  }));
  const question = Array.from({ length: 30 }, (_, index) => `word${index}`).join(' ');
  return { model: 'gpt-4o', messages: [...history, { role: 'user', content: question }], x_sim: { latency_ms_per_token: 40 } };
}

describe('issue 30: an unstreamed answer does not hold the parsed conversation while the upstream answers', () => {
  let e2e: E2eRelayWithSim;

  beforeEach(async () => {
    parsed.length = 0;
    e2e = await startRelayWithSim({ priority: 10 });
    // The body as Express's reader parsed it (`req.body`): its conversation watched as it is set.
    e2e.server.prependListener('request', (req: IncomingMessage) => {
      watchSets(req, 'body', (value) => {
        const messages: unknown = typeof value === 'object' && value !== null ? (value as { messages?: unknown }).messages : undefined;
        if (Array.isArray(messages)) parsed.push(new WeakRef(messages));
      });
    });
  });
  afterEach(async () => {
    await e2e.close();
  });

  it("lets go of both parsed conversations once the caller's bytes are on their way, and still answers and counts it all", async () => {
    const body = longConversation();
    const sent = JSON.stringify(body);
    expect(sent.length).toBeGreaterThan(100_000);
    const answer = e2e.postChat(body);
    while (e2e.sim.requests.length === 0) await delay(5);
    await collectUntil(() => !parsed.some((ref) => ref.deref()));
    expect(parsed).toHaveLength(2);
    expect(parsed.map((ref) => ref.deref())).toEqual([undefined, undefined]);

    const response = await answer;
    expect(response.status).toBe(200);
    const completion = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    expect(completion.choices[0]?.message.content.match(/word\d+/g)).toHaveLength(30);
    // The caller's bytes went upstream as they were.
    expect(e2e.sim.requests).toHaveLength(1);
    expect(e2e.sim.requests[0]?.bodyBytes).toBe(Buffer.byteLength(sent));
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, stream: false, channelId: e2e.channel.id });
    expect(row!.promptTokens).toBeGreaterThan(15_000);
  });

  it('reads the conversation back from the bytes for a retry on a channel that needs it converted', async () => {
    // The OpenAI channel first (priority 10) fails after the bytes went to it; an Anthropic channel then needs the conversation as Messages.
    const anthropic = await e2e.addChannel(e2e.sim.anthropicBaseUrl, { name: 'anthropic', type: 'anthropic', keys: [SIM_KEY], models: ['gpt-4o'], priority: 0 });
    e2e.sim.failNext({ kind: 'status', status: 503 }, 1);
    const body = { ...longConversation(), x_sim: undefined };
    const response = await e2e.postChat(body);
    expect(response.status).toBe(200);
    const completion = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    expect(completion.choices[0]?.message.content).toContain('word29');
    expect(e2e.sim.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/messages']);
    const converted = e2e.sim.requests[1]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(converted.messages).toHaveLength(body.messages.length);
    expect(JSON.stringify(converted.messages[0]?.content)).toContain('turn 0: the relay keeps');
    expect(JSON.stringify(converted.messages.at(-1)?.content)).toContain('word29');
    const rows = await e2e.usageRows(2);
    expect(rows.at(-1)).toMatchObject({ status: 200, channelId: anthropic.id });
  });
});
