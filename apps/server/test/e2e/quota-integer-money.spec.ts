import fc from 'fast-check';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';

/** gpt-4o's list price, micro-USD per million tokens. */
const PRICE = { model: 'gpt-4o', input: 2_500_000, output: 10_000_000 };
const USED_BEFORE = 1_000_000;

async function priced(e2e: E2eRelayWithSim): Promise<void> {
  const response = await fetch(`${e2e.url}/api/prices`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${e2e.relay.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ data: [PRICE] }),
  });
  expect(response.status).toBe(200);
}

/** The e2e token and its (admin) account, both with a large limit and some quota already used. */
async function withQuota(e2e: E2eRelayWithSim): Promise<{ accountId: number }> {
  const token = (await e2e.relay.storage.tokens.get(e2e.tokenId))!;
  await e2e.relay.storage.tokens.update(e2e.tokenId, { quotaLimit: 1_000_000_000_000, quotaUsed: USED_BEFORE });
  await e2e.relay.storage.accounts.update(token.accountId, { quotaLimit: 1_000_000_000_000, quotaUsed: USED_BEFORE });
  return { accountId: token.accountId };
}

async function quotaUsed(e2e: E2eRelayWithSim, accountId: number): Promise<{ token: number; account: number }> {
  await e2e.relay.services.recorder.flush();
  const token = (await e2e.relay.storage.tokens.get(e2e.tokenId))!.quotaUsed;
  const account = (await e2e.relay.storage.accounts.get(accountId))!.quotaUsed;
  return { token, account };
}

/** A body written by hand: JSON.stringify cannot write 1e300 as the attack did, nor -0. */
function post(e2e: E2eRelayWithSim, json: string): Promise<Response> {
  return fetch(`${e2e.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${e2e.token}`, 'content-type': 'application/json' },
    body: json,
  });
}

describe('issue 10 defect 3: quota wiped by max_tokens 1e300', () => {
  let e2e: E2eRelayWithSim;
  let accountId: number;

  beforeEach(async () => {
    e2e = await startRelayWithSim();
    await priced(e2e);
    ({ accountId } = await withQuota(e2e));
  });
  afterEach(() => e2e.close());

  it.each([
    ['max_tokens', '"max_tokens":1e300', false],
    ['max_tokens', '"max_tokens":1e300', true],
    ['max_completion_tokens', '"max_completion_tokens":1e300', false],
    ['max_tokens', '"max_tokens":10000001', false],
    ['n', '"n":1e300', true],
  ])('%s out of range (%s, stream %s): 400 naming it, quota untouched', async (param, field, stream) => {
    const response = await post(e2e, `{"model":"gpt-4o","stream":${stream},${field},"messages":[{"role":"user","content":"hi"}]}`);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { param: string; type: string } };
    expect(error).toMatchObject({ type: 'invalid_request_error', param });
    expect(await quotaUsed(e2e, accountId)).toEqual({ token: USED_BEFORE, account: USED_BEFORE });
  });

  it('a request at the bounds is charged its real cost, nothing more and nothing less', async () => {
    // gpt-4o's own output limit: served, and charged what it cost.
    const response = await post(e2e, '{"model":"gpt-4o","max_tokens":16384,"n":1,"messages":[{"role":"user","content":"hi"}]}');
    expect(response.status).toBe(200);
    await response.text();
    const [row] = await e2e.usageRows(1);
    expect(row!.cost).toBeGreaterThan(0);
    expect(await quotaUsed(e2e, accountId)).toEqual({ token: USED_BEFORE + row!.cost, account: USED_BEFORE + row!.cost });
    // The contract's own bound passes the relay; gpt-4o refuses it (a Chat Completions caller's
    // own field on an OpenAI channel reaches the upstream as sent): its 400, and no charge.
    const refused = await post(e2e, '{"model":"gpt-4o","max_tokens":10000000,"n":1,"messages":[{"role":"user","content":"hi"}]}');
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('max_tokens is too large');
    await e2e.usageRows(2);
    expect(await quotaUsed(e2e, accountId)).toEqual({ token: USED_BEFORE + row!.cost, account: USED_BEFORE + row!.cost });
  });

  it('no request lowers quota_used: any numbers in the money fields, streamed or not, success or failure (fast-check)', async () => {
    // Mostly numbers the contract accepts (so requests run, stream and fail upstream), the rest
    // anything: out of range, fractions, past 2^53, 1e300.
    const number = fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 4096 }), weight: 6 },
      { arbitrary: fc.integer({ min: 1, max: 10_000_001 }), weight: 1 },
      { arbitrary: fc.integer({ min: -5, max: 200 }), weight: 1 },
      { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
      { arbitrary: fc.constantFrom(1e300, -1e300, 1e21, 2 ** 53, 2 ** 53 + 2, 1.5, 0, -0, 1e-300, 128, 129, 10_000_000), weight: 1 },
    );
    const choices = fc.oneof({ arbitrary: fc.constant(1), weight: 6 }, { arbitrary: number, weight: 1 });
    const fault = fc.constantFrom(undefined, undefined, undefined, 'status:500', 'status:400', 'cut', 'stream-error', 'malformed');
    const fields = fc.record(
      {
        max_tokens: number,
        max_completion_tokens: number,
        n: choices,
        stream: fc.boolean(),
        fault,
        words: fc.integer({ min: 1, max: 40 }),
        // The caller hangs up after the first bytes: charged for what was delivered.
        abort: fc.boolean(),
      },
      { requiredKeys: ['stream', 'words', 'abort'] },
    );
    let previous = await quotaUsed(e2e, accountId);
    const statuses = new Map<number, number>();
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(fields, async ({ max_tokens, max_completion_tokens, n, stream, fault, words, abort }) => {
        // Numbers written as JSON writes them (1e300 stays 1e300; -0 becomes 0).
        const parts = [`"model":"gpt-4o"`, `"stream":${stream}`, `"messages":[{"role":"user","content":${JSON.stringify('word '.repeat(words))}}]`];
        for (const [name, value] of Object.entries({ max_tokens, max_completion_tokens, n })) {
          if (value !== undefined) parts.push(`"${name}":${JSON.stringify(value)}`);
        }
        // Slow enough that an abort lands mid-answer.
        parts.push(`"x_sim":${JSON.stringify({ fault, latency_ms_per_token: abort ? 5 : undefined })}`);
        // Faults are played on purpose: keep the channel's circuit closed so the next run reaches it.
        e2e.relay.services.health.forget(e2e.channel.id);
        const response = await post(e2e, `{${parts.join(',')}}`);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (abort && response.body) {
          const reader = response.body.getReader();
          await reader.read().catch(() => undefined);
          await reader.cancel().catch(() => undefined);
        } else {
          await response.arrayBuffer().catch(() => undefined);
        }
        // Compare settled amounts: wait for the request's row (written once the response closed).
        sent += 1;
        expect(await e2e.usageRows(sent)).toHaveLength(sent);
        const now = await quotaUsed(e2e, accountId);
        expect(Number.isSafeInteger(now.token) && Number.isSafeInteger(now.account)).toBe(true);
        expect(now.token).toBeGreaterThanOrEqual(previous.token);
        expect(now.account).toBeGreaterThanOrEqual(previous.account);
        previous = now;
      }),
      { numRuns: 100, seed: 20261123 },
    );
    // Every increase is a row's cost: quota_used is what it was plus the sum of the rows' costs.
    const rows = await e2e.usageRows(sent);
    const charged = rows.reduce((sum, row) => sum + row.cost, 0);
    expect(await quotaUsed(e2e, accountId)).toEqual({ token: USED_BEFORE + charged, account: USED_BEFORE + charged });
    // Both paths ran: admitted requests (charged) and refused ones.
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(0);
    const logged = new Map<number, number>();
    for (const row of rows) logged.set(row.status, (logged.get(row.status) ?? 0) + 1);
    expect(logged.get(499)).toBeGreaterThan(0);
    console.info(
      `defect 3 property: ${sent} requests, answered ${JSON.stringify(Object.fromEntries(statuses))}, ` +
        `logged ${JSON.stringify(Object.fromEntries(logged))}, charged ${charged} µUSD`,
    );
  }, 60_000);
});
