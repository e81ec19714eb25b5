import type { IncomingMessage } from 'node:http';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { SIM_KEY, startE2eRelay, startRelayWithSim, type E2eRelay, type E2eRelayWithSim } from './e2e-relay';
import { collectUntil, watchSets } from './watch-garbage';
import type { RelayedRequest } from '../../src/pipeline/relay-chat-completion';

/** The conversations the relay held for each request (as parsed, as validated, as converted to the hub), watched without holding them. */
const held: Array<WeakRef<unknown[]>> = [];

// A plain function, not jest.fn: a mock's recorded arguments would hold what is watched.
jest.mock('../../src/pipeline/relay-chat-completion', () => {
  const actual: typeof import('../../src/pipeline/relay-chat-completion') = jest.requireActual('../../src/pipeline/relay-chat-completion');
  return {
    ...actual,
    relayChatCompletion: (...args: Parameters<typeof actual.relayChatCompletion>) => {
      const relayed: RelayedRequest = args[1];
      held.push(new WeakRef(relayed.request.messages));
      const native = conversationOf(relayed.native?.body);
      if (Array.isArray(native)) held.push(new WeakRef(native));
      return actual.relayChatCompletion(...args);
    },
  };
});

/** A body's conversation: Chat Completions' and Messages' `messages`, Gemini's `contents`. */
function conversationOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  const { messages, contents } = body as { messages?: unknown; contents?: unknown };
  return messages ?? contents;
}

/** Watches the body as Express's reader parsed it (`req.body`): its conversation, as it is set. */
function watchParsedBodies(e2e: E2eRelay): void {
  e2e.server.prependListener('request', (req: IncomingMessage) => {
    watchSets(req, 'body', (value) => {
      const conversation = conversationOf(value);
      if (Array.isArray(conversation)) held.push(new WeakRef(conversation));
    });
  });
}

/** Until the upstream has the request: then every parsed conversation is collected, or not. */
async function collectedWhileAnswered(sim: UpstreamSim): Promise<Array<unknown[] | undefined>> {
  while (sim.requests.length === 0) await delay(5);
  await collectUntil(() => !held.some((ref) => ref.deref()));
  return held.map((ref) => ref.deref());
}

const turn = (index: number) => `turn ${index}: ${'the relay keeps one pool of upstream connections per channel. '.repeat(32)}`;
const question = Array.from({ length: 30 }, (_, index) => `word${index}`).join(' ');

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** ~100 KB of earlier conversation, then a question whose answer comes slowly (40 ms a token). */
function longConversation(): { model: string; messages: Array<{ role: string; content: string }>; x_sim: { latency_ms_per_token: number } } {
  const history = Array.from({ length: 50 }, (_, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content: turn(index) }));
  return { model: 'gpt-4o', messages: [...history, { role: 'user', content: question }], x_sim: { latency_ms_per_token: 40 } };
}

describe('issue 30: an unstreamed answer does not hold the parsed conversation while the upstream answers', () => {
  let e2e: E2eRelayWithSim;

  beforeEach(async () => {
    held.length = 0;
    e2e = await startRelayWithSim({ priority: 10 });
    watchParsedBodies(e2e);
  });
  afterEach(async () => {
    await e2e.close();
  });

  it("lets go of both parsed conversations once the caller's bytes are on their way, and still answers and counts it all", async () => {
    const body = longConversation();
    const sent = JSON.stringify(body);
    expect(sent.length).toBeGreaterThan(100_000);
    const answer = e2e.postChat(body);
    expect(await collectedWhileAnswered(e2e.sim)).toEqual([undefined, undefined]);

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

const MODEL = 'claude-sonnet-4-20250514';

/** A coding agent's turn in Anthropic's dialect: ~100 KB of earlier conversation, then a question answered slowly (40 ms a token). */
function agentTurn() {
  const history = Array.from({ length: 50 }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: [{ type: 'text', text: turn(index) }],
  }));
  return {
    model: MODEL,
    max_tokens: 1024,
    system: 'You are a coding agent.',
    messages: [...history, { role: 'user', content: `${question} [sim:latency=40]` }],
  };
}

describe('issue 30: an unstreamed Messages answer passed through does not hold the conversation while the upstream answers', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;

  const postMessage = (body: unknown) =>
    fetch(`${e2e.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': e2e.token, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeEach(async () => {
    held.length = 0;
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
    await e2e.addChannel(sim.anthropicBaseUrl, { name: 'anthropic', type: 'anthropic', models: [MODEL], priority: 10 });
    watchParsedBodies(e2e);
  });
  afterEach(async () => {
    await e2e.close();
  });

  it("lets go of all three once the caller's bytes are on their way, and still answers and counts it all", async () => {
    const body = agentTurn();
    const sent = JSON.stringify(body);
    expect(sent.length).toBeGreaterThan(100_000);
    const answer = postMessage(body);
    expect(await collectedWhileAnswered(sim)).toEqual([undefined, undefined, undefined]);

    const response = await answer;
    expect(response.status).toBe(200);
    const message = (await response.json()) as { model: string; content: Array<{ type: string; text?: string }> };
    expect(message.model).toBe(MODEL);
    expect(message.content[0]?.text?.match(/word\d+/g)).toHaveLength(30);
    // The caller's bytes went upstream as they were.
    expect(sim.requests.map((request) => [request.path, request.bodyBytes])).toEqual([['/v1/messages', Buffer.byteLength(sent)]]);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, stream: false });
    expect(row!.promptTokens).toBeGreaterThan(15_000);
  });

  it('converts the conversation read back from the bytes for a retry on a channel that is not Anthropic', async () => {
    // The Anthropic channel first (priority 10) fails after the bytes went to it; an OpenAI channel then needs the hub's conversation.
    const openAi = await e2e.addChannel(sim.baseUrl, { name: 'openai', type: 'openai', keys: [SIM_KEY], models: [MODEL], priority: 0 });
    sim.failNext({ kind: 'status', status: 503 }, 1);
    const body = agentTurn();
    const response = await postMessage(body);
    expect(response.status).toBe(200);
    const message = (await response.json()) as { content: Array<{ type: string; text?: string }> };
    expect(message.content[0]?.text).toContain('word29');
    expect(sim.requests.map((request) => request.path)).toEqual(['/v1/messages', '/v1/chat/completions']);
    const converted = sim.requests[1]?.body as { messages: Array<{ role: string; content: unknown }> };
    // The system prompt first, then every turn as sent.
    expect(converted.messages).toHaveLength(body.messages.length + 1);
    expect(converted.messages[0]).toMatchObject({ role: 'system', content: 'You are a coding agent.' });
    expect(JSON.stringify(converted.messages[1]?.content)).toContain('turn 0: the relay keeps');
    expect(JSON.stringify(converted.messages.at(-1)?.content)).toContain('word29');
    const rows = await e2e.usageRows(2);
    expect(rows.at(-1)).toMatchObject({ status: 200, channelId: openAi.id });
  });
});

describe('issue 30: an unstreamed Gemini answer passed through does not hold the conversation while the upstream answers', () => {
  let e2e: E2eRelay;
  let sim: UpstreamSim;
  const GEMINI = 'gemini-2.5-flash';

  beforeEach(async () => {
    held.length = 0;
    e2e = await startE2eRelay();
    sim = await e2e.startSim();
    await e2e.addChannel(sim.geminiBaseUrl, { name: 'gemini', type: 'gemini', models: [GEMINI] });
    watchParsedBodies(e2e);
  });
  afterEach(async () => {
    await e2e.close();
  });

  it("lets go of all three once the caller's bytes are on their way, and still answers and counts it all", async () => {
    const contents = Array.from({ length: 50 }, (_, index) => ({ role: index % 2 === 0 ? 'user' : 'model', parts: [{ text: turn(index) }] }));
    const body = { systemInstruction: { parts: [{ text: 'You are a coding agent.' }] }, contents: [...contents, { role: 'user', parts: [{ text: `${question} [sim:latency=40]` }] }] };
    const sent = JSON.stringify(body);
    expect(sent.length).toBeGreaterThan(100_000);
    const answer = fetch(`${e2e.url}/v1beta/models/${GEMINI}:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': e2e.token, 'content-type': 'application/json' },
      body: sent,
    });
    expect(await collectedWhileAnswered(sim)).toEqual([undefined, undefined, undefined]);

    const response = await answer;
    expect(response.status).toBe(200);
    const generated = (await response.json()) as { candidates: Array<{ content: { parts: Array<{ text?: string }> } }> };
    expect(generated.candidates[0]?.content.parts[0]?.text?.match(/word\d+/g)).toHaveLength(30);
    expect(sim.requests.map((request) => [request.path, request.bodyBytes])).toEqual([[`/v1beta/models/${GEMINI}:generateContent`, Buffer.byteLength(sent)]]);
    const [row] = await e2e.usageRows(1);
    expect(row).toMatchObject({ status: 200, stream: false });
    expect(row!.promptTokens).toBeGreaterThan(15_000);
  });
});
