import { closedPort } from '../testing/closed-port';
import type { Channel } from '@chat-relay/contract';
import { startE2eRelay, type E2eRelay } from './e2e-relay';

/** A chat body whose last user text carries a simulator directive (`[sim:fault=status:500]`). */
const chat = (text: string, extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o',
  messages: [{ role: 'user', content: text }],
  ...extra,
});

describe('issue 10 defect 7: any token trips a channel for everyone', () => {
  let e2e: E2eRelay;
  const tokens: string[] = [];

  const post = (token: string, body: unknown) =>
    fetch(`${e2e.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const health = async (channel: Channel): Promise<Channel['health']> => {
    const response = await fetch(`${e2e.url}/api/channels/${channel.id}`, { headers: { authorization: `Bearer ${e2e.relay.adminKey}` } });
    return ((await response.json()) as Channel).health;
  };

  beforeEach(async () => {
    e2e = await startE2eRelay({ circuit: { coolDownMs: 400 } });
    tokens.length = 0;
    tokens.push(e2e.token);
    for (const name of ['second', 'third']) {
      const response = await fetch(`${e2e.url}/api/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      tokens.push(((await response.json()) as { key: string }).key);
    }
  });
  afterEach(() => e2e.close());

  it("one token's failing requests (5xx, cut connections, 4xx) leave the channel to the others", async () => {
    const sim = await e2e.startSim();
    const channel = await e2e.addChannel(sim.baseUrl, { timeouts: { first_byte_ms: 300 } });
    const [attacker = '', victim = ''] = tokens;

    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await post(attacker, chat('[sim:fault=status:500] hi'))).status);
    for (let i = 0; i < 4; i++) statuses.push((await post(attacker, chat('[sim:fault=cut] hi'))).status);
    for (let i = 0; i < 4; i++) statuses.push((await post(attacker, chat('[sim:fault=status:400] hi'))).status);

    expect(statuses.filter((status) => status === 503)).toEqual([]);
    expect(await health(channel)).toMatchObject({ state: 'closed' });
    const answer = await post(victim, chat('Hello there'));
    expect(answer.status).toBe(200);
  });

  it('a timeout of a request asking for an unusually long answer counts against no channel, whoever sends it', async () => {
    const sim = await e2e.startSim();
    const channel = await e2e.addChannel(sim.baseUrl, { timeouts: { first_byte_ms: 200 } });

    // Long (over LONG_ANSWER_TOKENS) yet within what gpt-4o takes: 16,384 output tokens at most.
    const slow = await Promise.all(
      tokens.flatMap((token) => [1, 2].map(() => post(token, chat('[sim:fault=timeout] essay', { max_tokens: 16_384 })))),
    );

    expect(slow.map((response) => response.status)).toEqual([504, 504, 504, 504, 504, 504]);
    expect(await health(channel)).toMatchObject({ state: 'closed', failures: 0 });
    expect((await post(tokens[0] ?? '', chat('Hello there'))).status).toBe(200);
  });

  it("many callers' 5xx open it; after the cool-down one trial decides: failure reopens, success closes", async () => {
    const sim = await e2e.startSim();
    const channel = await e2e.addChannel(sim.baseUrl);
    for (const token of tokens.slice(0, 2)) {
      for (let i = 0; i < 2; i++) expect((await post(token, chat('[sim:fault=status:503] hi'))).status).toBe(502);
    }

    expect(await health(channel)).toMatchObject({ state: 'open', failures: 4 });
    const refused = await post(tokens[2] ?? '', chat('Hello there'));
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('no_available_channel');

    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await health(channel)).toMatchObject({ state: 'half_open' });
    expect((await post(tokens[0] ?? '', chat('[sim:fault=status:500] trial'))).status).toBe(502);
    expect(await health(channel)).toMatchObject({ state: 'open' });

    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await post(tokens[2] ?? '', chat('Hello there'))).status).toBe(200);
    expect(await health(channel)).toMatchObject({ state: 'closed' });
  });

  it('a real outage (connection refused) opens it even when one caller sees it', async () => {
    const channel = await e2e.addChannel(`http://127.0.0.1:${await closedPort()}/v1`);

    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(tokens[0] ?? '', chat('Hello there'))).status);

    expect(statuses).toEqual([502, 502, 502, 502, 503]);
    expect(await health(channel)).toMatchObject({ state: 'open' });
  });
});
