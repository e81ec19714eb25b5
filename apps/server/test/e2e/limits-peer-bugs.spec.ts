import { AccountSchema, TokenSchema, type LimitWindow } from '@chat-relay/contract';
import OpenAI from 'openai';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';

/**
 * Peers' trackers on periodic limits (issue 32), each a spec proving chat-relay has what they ask
 * for: new-api #4882 (a token's limit restored every day), #5252 (a daily token cap per token),
 * #6458 (a user's requests per natural day, summed over its tokens) and PR #3345 (blocked before
 * forwarding upstream; refunds keep the period's usage consistent). The relay's clock is the
 * spec's: days pass here, not in real time (UTC, the default zone).
 */

const MODEL = 'gpt-4o-mini';
/** 10 µUSD a completion token, prompts free. */
const OUTPUT_PRICE = 10;
const DAY_ONE = Date.parse('2026-11-29T09:00:00Z');
const DAY_TWO = Date.parse('2026-11-30T00:00:00Z');
const PROMPT = 'please echo this sentence back with all of its many words intact';

describe('e2e: peers’ periodic-limit requests and bugs', () => {
  let e2e: E2eRelayWithSim;
  let now = DAY_ONE;

  beforeAll(async () => {
    e2e = await startRelayWithSim({ models: [MODEL] }, { clock: () => now });
    const priced = await admin('PUT', '/api/prices', { data: [{ model: MODEL, input: 0, output: OUTPUT_PRICE * 1_000_000 }] });
    expect(priced.status).toBe(200);
  });
  afterAll(() => e2e.close());

  async function admin(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${e2e.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
  async function newToken(fields: Record<string, unknown>): Promise<{ id: number; key: string }> {
    const response = await admin('POST', '/api/tokens', { name: `peer ${Math.random()}`, ...fields });
    expect(response.status).toBe(201);
    const { id, key } = (await response.json()) as { id: number; key: string };
    return { id, key };
  }
  const tokenWindows = async (id: number): Promise<LimitWindow[]> => TokenSchema.parse(await (await admin('GET', `/api/tokens/${id}`)).json()).windows;
  const chat = (key: string, maxTokens = 5, text = PROMPT) =>
    new OpenAI({ apiKey: key, baseURL: `${e2e.url}/v1`, maxRetries: 0 }).chat.completions.create({
      model: MODEL,
      max_tokens: maxTokens,
      messages: [{ role: 'user', content: text }],
    });
  const settle = () => e2e.relay.services.recorder.flush();

  it('new-api #4882: a token’s daily budget comes back by itself the next day — no cron, no admin write', async () => {
    now = DAY_ONE;
    // 5 completion tokens at 10 µUSD: 50 µUSD a request; two fit in 100.
    const { id, key } = await newToken({ periodic_limits: [{ period: 'day', metric: 'cost', limit: 100 }] });
    await chat(key);
    await chat(key);
    await expect(chat(key)).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
    await settle();
    expect((await tokenWindows(id))[0]).toMatchObject({ used: 100, remaining: 0, starts_at: '2026-11-29T00:00:00.000Z' });

    // Nothing is done between the days but the clock moving on.
    now = DAY_TWO;
    await expect(chat(key)).resolves.toMatchObject({ object: 'chat.completion' });
    await settle();
    expect((await tokenWindows(id))[0]).toMatchObject({ used: 50, starts_at: '2026-11-30T00:00:00.000Z' });
  });

  it('new-api #5252: a daily cap on tokens (prompt + completion) per token, each token its own', async () => {
    now = DAY_ONE;
    const limit = 200;
    const capped = await newToken({ periodic_limits: [{ period: 'day', metric: 'tokens', limit }] });
    const other = await newToken({ periodic_limits: [{ period: 'day', metric: 'tokens', limit }] });
    let answered = 0;
    let refusal: unknown;
    // Each request reserves its bound (prompt + 5) and settles at what the upstream reports.
    for (let i = 0; i < 40 && refusal === undefined; i += 1) {
      await chat(capped.key).then(
        () => (answered += 1),
        (error: unknown) => (refusal = error),
      );
      await settle();
    }
    expect(answered).toBeGreaterThan(1);
    expect(refusal).toMatchObject({ status: 429, code: 'insufficient_quota', message: expect.stringMatching(/daily token limit of this API key/) });
    const [window] = await tokenWindows(capped.id);
    expect(window?.metric).toBe('tokens');
    // Never past the cap, and what it counts is what the usage rows say.
    expect(window?.used).toBeLessThanOrEqual(limit);
    const logs = (await (await admin('GET', `/api/logs?token_id=${capped.id}`)).json()) as { data: Array<{ prompt_tokens: number; completion_tokens: number; status: number }> };
    const counted = logs.data.filter((row) => row.status === 200).reduce((sum, row) => sum + row.prompt_tokens + row.completion_tokens, 0);
    expect(window?.used).toBe(counted);
    // Another token's cap is its own.
    await expect(chat(other.key)).resolves.toMatchObject({ object: 'chat.completion' });
  });

  it('new-api #6458: an account’s requests per natural day are summed over all its tokens; other accounts are unaffected', async () => {
    now = DAY_ONE;
    const created = await admin('POST', '/api/accounts', { name: `team ${Math.random()}`, periodic_limits: [{ period: 'day', metric: 'requests', limit: 3 }] });
    expect(created.status).toBe(201);
    const account = AccountSchema.parse(await created.json());
    const first = await newToken({ account_id: account.id });
    const second = await newToken({ account_id: account.id });
    const elsewhere = await newToken({});

    await chat(first.key);
    await chat(second.key);
    await chat(first.key);
    // The account's fourth request of the day, from either token: refused, naming the account's window.
    for (const key of [first.key, second.key]) {
      await expect(chat(key)).rejects.toMatchObject({ status: 429, code: 'insufficient_quota', message: expect.stringMatching(/daily request limit of the account of this API key/) });
    }
    await expect(chat(elsewhere.key)).resolves.toMatchObject({ object: 'chat.completion' });
    await settle();
    const read = AccountSchema.parse(await (await admin('GET', `/api/accounts/${account.id}`)).json());
    expect(read.windows[0]).toMatchObject({ metric: 'requests', used: 3, remaining: 0 });

    now = DAY_TWO;
    await expect(chat(second.key)).resolves.toMatchObject({ object: 'chat.completion' });
  });

  it('new-api PR #3345: refused before anything is forwarded; a failed request gives its reservation back to the day’s cost', async () => {
    now = DAY_ONE;
    const { id, key } = await newToken({ periodic_limits: [{ period: 'day', metric: 'cost', limit: 1_000 }] });
    await chat(key);
    // The upstream fails it: nothing delivered, nothing charged — the reservation of 5 tokens is given back.
    await expect(chat(key, 5, `${PROMPT} [sim:fault=status:500]`)).rejects.toMatchObject({ status: 502 });
    await settle();
    const [window] = await tokenWindows(id);
    expect(window).toMatchObject({ metric: 'cost', used: 50 });

    // A request whose bound cannot fit what is left is refused before the upstream sees it.
    const before = e2e.sim.requests.length;
    await expect(chat(key, 100)).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
    expect(e2e.sim.requests.length).toBe(before);
  });
});
