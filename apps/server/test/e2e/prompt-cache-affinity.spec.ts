import request from 'supertest';
import type { UpstreamSim } from '@chat-relay/upstream-sim';
import { agentBody, agentHeaders, agentUrl, readAgentRequest } from './agent-fixtures';
import { ANTHROPIC_VERSION } from './anthropic-e2e';
import { startE2eRelay, type E2eRelay } from './e2e-relay';
import { bearer } from '../testing/system-api';

/**
 * Prompt-cache affinity (issue 29, defect 5): a Claude Code session across two equal anthropic
 * channels, each with keys of its own (the simulator keeps a prompt cache per key, as Anthropic
 * does per workspace). Without affinity each turn draws a channel and key, and the cache misses
 * whenever the draw changes; with it, every turn after the first reads the previous turn's prefix.
 */
const TURNS = 20;
jest.setTimeout(120_000);
const KEYS = { a: ['sk-ant-a1', 'sk-ant-a2'], b: ['sk-ant-b1', 'sk-ant-b2'] };
type Name = keyof typeof KEYS;

/** Claude Code's recorded request (claude-sonnet-4-5): its system blocks with cache_control, tools and metadata. */
const recorded = readAgentRequest('claudeCodeSonnet45');
const base = agentBody(recorded);
const sessionId = recorded.headers['x-claude-code-session-id'] ?? '';

type Block = { type: 'text'; text: string; cache_control?: { type: 'ephemeral' } };
type Turn = { role: 'user' | 'assistant'; content: Block[] };

interface TurnUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

const promptOf = (usage: TurnUsage) => usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;

/** As Claude Code does: the cache breakpoint on the newest user message only. */
function markLast(messages: Turn[]): Turn[] {
  return messages.map((message, index) => ({
    ...message,
    content: message.content.map(({ cache_control: _dropped, ...block }, at) =>
      index === messages.length - 1 && at === message.content.length - 1 ? { ...block, cache_control: { type: 'ephemeral' as const } } : block,
    ),
  }));
}

interface Conversation {
  usages: TurnUsage[];
  /** The upstream key each turn was sent with. */
  keys: string[];
}

/** An agent's next user turn: what a command printed (a few KB, as test runs and file reads are), then the ask. */
function nextStep(turn: number): string {
  const output = Array.from({ length: 60 }, (_, line) => `PASS src/module-${turn}-${line}.spec.ts (${(line * 37) % 900} ms)`).join('\n');
  return `<command-output>\n${output}\n</command-output>\nStep ${turn + 1}: fix what failed and run the tests again.`;
}

/** TURNS turns of one session, each the whole conversation so far (non-streamed, thinking left out). */
async function converse(e2e: E2eRelay, sim: UpstreamSim, session = sessionId): Promise<Conversation> {
  const opening = base['messages'] as Turn[];
  let messages: Turn[] = opening;
  const usages: TurnUsage[] = [];
  const keys: string[] = [];
  for (let turn = 1; turn <= TURNS; turn++) {
    const before = sim.requests.length;
    const body = {
      model: base['model'],
      system: base['system'],
      tools: base['tools'],
      metadata: base['metadata'],
      max_tokens: 1024,
      messages: markLast(messages),
    };
    const response = await fetch(`${e2e.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: {
        ...agentHeaders(recorded, e2e.token),
        'x-claude-code-session-id': session,
        'anthropic-version': ANTHROPIC_VERSION,
        'anthropic-beta': 'claude-code-20250219',
      },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { usage: TurnUsage; content: Block[] };
    expect({ turn, status: response.status, answer: response.status === 200 ? undefined : answer }).toEqual({ turn, status: 200 });
    usages.push(answer.usage);
    // The key of the attempt that answered: the last one of the turn.
    keys.push(String(sim.requests.slice(before).filter((seen) => seen.path === '/v1/messages').pop()?.headers['x-api-key']));
    // The simulator may answer with a tool call; the conversation goes on as text (no tool results to make up).
    const text = answer.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    const said = [{ type: 'text' as const, text: text || `Turn ${turn} done.` }];
    messages = [...messages, { role: 'assistant', content: said }, { role: 'user', content: [{ type: 'text', text: nextStep(turn) }] }];
  }
  return { usages, keys };
}

/** Turns after the first whose cache read covers the whole previous prompt (its last breakpoint). */
const hits = ({ usages }: Conversation): number =>
  usages.slice(1).filter((usage, index) => usage.cache_read_input_tokens >= promptOf(usages[index] as TurnUsage)).length;

/** Cache reads as a share of the prompt tokens of the turns after the first. */
/** Prompt tokens written to the cache (charged at 1.25x the input price on Anthropic) over the turns after the first. */
const writes = ({ usages }: Conversation): number => usages.slice(1).reduce((sum, usage) => sum + usage.cache_creation_input_tokens, 0);

const readShare = ({ usages }: Conversation): number => {
  const later = usages.slice(1);
  return later.reduce((sum, usage) => sum + usage.cache_read_input_tokens, 0) / later.reduce((sum, usage) => sum + promptOf(usage), 0);
};

/** Channels a and b on one simulator, each with `keysPerChannel` keys of its own (each its own cache). */
async function twoChannels(env: Record<string, string> = {}, keysPerChannel = 2) {
  const e2e = await startE2eRelay({ env });
  const sim = await e2e.startSim({ acceptedKeys: [...KEYS.a, ...KEYS.b] });
  const channel = (name: Name) =>
    e2e.addChannel(sim.anthropicBaseUrl, { name, type: 'anthropic', keys: KEYS[name].slice(0, keysPerChannel), models: [String(base['model'])] });
  const channels = { a: await channel('a'), b: await channel('b') };
  return { e2e, sim, channels };
}

describe('e2e: prompt-cache affinity across two equal anthropic channels', () => {
  let e2e: E2eRelay;
  afterEach(() => e2e.close());

  /** The conversation with affinity and without (RELAY_AFFINITY_TTL_MS=0), each on a relay of its own. */
  async function bothWays(keysPerChannel: number): Promise<{ withAffinity: Conversation; without: Conversation }> {
    const pinned = await twoChannels({}, keysPerChannel);
    e2e = pinned.e2e;
    const withAffinity = await converse(e2e, pinned.sim);
    await e2e.close();
    const drawn = await twoChannels({ RELAY_AFFINITY_TTL_MS: '0' }, keysPerChannel);
    e2e = drawn.e2e;
    const without = await converse(e2e, drawn.sim);
    const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
    process.stdout.write(
      `prompt-cache affinity, ${TURNS} turns, 2 anthropic channels x ${keysPerChannel} key(s): turns after the first reading the previous prompt ` +
        `${hits(withAffinity)}/${TURNS - 1} with, ${hits(without)}/${TURNS - 1} without; cache reads / prompt tokens ` +
        `${percent(readShare(withAffinity))} with, ${percent(readShare(without))} without; tokens written to the cache ` +
        `${writes(withAffinity)} with, ${writes(without)} without\n`,
    );
    return { withAffinity, without };
  }

  it('no prompt-cache affinity (defect 5): with affinity every turn after the first reads the previous prompt from the cache; without, about half', async () => {
    const { withAffinity, without } = await bothWays(1);
    expect(new Set(withAffinity.keys).size).toBe(1);
    expect(hits(withAffinity)).toBe(TURNS - 1);
    expect(readShare(withAffinity)).toBeGreaterThan(0.9);
    // A fair draw between two channels keeps the previous one about half the time (all 19: p ≈ 4e-6).
    expect(new Set(without.keys).size).toBe(2);
    expect(hits(without)).toBeLessThan(TURNS - 1);
  });

  it('pins the key too: with two keys per channel, rotation alone would never hit the cache twice in a row', async () => {
    const { withAffinity, without } = await bothWays(2);
    expect(new Set(withAffinity.keys).size).toBe(1);
    expect(hits(withAffinity)).toBe(TURNS - 1);
    // Each channel rotates its keys, so no turn meets the key of the turn before.
    expect(hits(without)).toBe(0);
  });

  it('a failure on the pinned channel moves the session to the retry\'s channel, where it stays', async () => {
    const setup = await twoChannels();
    e2e = setup.e2e;
    const { sim } = setup;
    const first = await converse(e2e, sim, 'session-failover');
    const pinnedKey = first.keys[0] ?? '';
    sim.failNext({ kind: 'status', status: 529 });
    const before = sim.requests.length;
    const after = await converse(e2e, sim, 'session-failover');
    const tried = sim.requests.slice(before, before + 2).map((seen) => String(seen.headers['x-api-key']));
    expect(tried[0]).toBe(pinnedKey);
    const moved = after.keys[0] ?? '';
    expect(KEYS.a.includes(moved)).not.toBe(KEYS.a.includes(pinnedKey));
    expect(new Set(after.keys)).toEqual(new Set([moved]));
  });

  // Weight zero cannot be set through the API (its minimum is 1); pickChannel's spec covers it.
  it('a pinned channel put below the other in priority, or disabled, is left for the other', async () => {
    const setup = await twoChannels();
    e2e = setup.e2e;
    const { sim, channels } = setup;
    const first = await converse(e2e, sim, 'session-weight');
    const onA = KEYS.a.includes(first.keys[0] ?? '');
    const [pinned, other] = onA ? [channels.a, channels.b] : [channels.b, channels.a];
    await request(e2e.relay.app).patch(`/api/channels/${pinned.id}`).set(bearer(e2e.relay.adminKey)).send({ priority: -1 }).expect(200);
    const moved = await converse(e2e, sim, 'session-weight');
    expect(moved.keys.every((key) => KEYS[other.name as Name].includes(key))).toBe(true);

    await request(e2e.relay.app).patch(`/api/channels/${pinned.id}`).set(bearer(e2e.relay.adminKey)).send({ priority: 0 }).expect(200);
    await request(e2e.relay.app).patch(`/api/channels/${other.id}`).set(bearer(e2e.relay.adminKey)).send({ enabled: false }).expect(200);
    const back = await converse(e2e, sim, 'session-weight');
    expect(back.keys.every((key) => KEYS[pinned.name as Name].includes(key))).toBe(true);
  });

  it("is kept per token and model: another caller's same session name is a session of its own", async () => {
    const setup = await twoChannels();
    e2e = setup.e2e;
    const second = await request(e2e.relay.app).post('/api/tokens').set(bearer(e2e.relay.adminKey)).send({ name: 'second' }).expect(201);
    const affinity = e2e.relay.services.affinity;
    const scope = (tokenId: number) => `token:${tokenId}|${String(base['model'])}|session:shared-name`;
    const ask = (key: string) =>
      fetch(`${e2e.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION, 'content-type': 'application/json', 'x-claude-code-session-id': 'shared-name' },
        body: JSON.stringify({ model: base['model'], max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      });
    expect((await ask(e2e.token)).status).toBe(200);
    expect(affinity?.lookup(scope(e2e.tokenId))).toMatchObject({ channelId: expect.any(Number) });
    expect(affinity?.lookup(scope(Number(second.body.id)))).toBeUndefined();
    expect((await ask(String(second.body.key))).status).toBe(200);
    expect(affinity?.lookup(scope(Number(second.body.id)))).toMatchObject({ channelId: expect.any(Number) });
  });

  it('Gemini CLI names no session: its requests stay together by their prompt\'s prefix', async () => {
    const gemini = readAgentRequest('geminiCli');
    const model = /\/models\/([^:]+):/.exec(gemini.path)?.[1] ?? '';
    e2e = await startE2eRelay();
    const sim = await e2e.startSim({ acceptedKeys: [...KEYS.a, ...KEYS.b] });
    for (const name of ['a', 'b'] as const) {
      await e2e.addChannel(sim.geminiBaseUrl, { name, type: 'gemini', keys: KEYS[name].slice(0, 1), models: [model] });
    }
    const keysSeen = new Set<string>();
    for (let turn = 0; turn < 8; turn++) {
      const before = sim.requests.length;
      const response = await fetch(agentUrl(e2e.url, gemini), { method: 'POST', headers: agentHeaders(gemini, e2e.token), body: JSON.stringify(agentBody(gemini)) });
      expect(response.status).toBe(200);
      await response.text();
      for (const seen of sim.requests.slice(before)) keysSeen.add(String(seen.headers['x-goog-api-key']));
    }
    // Without affinity, eight fair draws all alike: 1 in 128.
    expect(keysSeen.size).toBe(1);
    expect([...KEYS.a, ...KEYS.b]).toContain([...keysSeen][0]);
  });
});
