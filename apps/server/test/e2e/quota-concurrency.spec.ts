import type { ChatCompletionRequest } from '@chat-relay/contract';
import { reservationOf } from './reservation-of';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';

/**
 * SPEC §8 and the token-policy issue: a request is admitted only when its whole reservation
 * fits, so N concurrent requests never push quota_used past quota_limit, and as many are
 * admitted as fit; successes match charges; one log row each.
 */
const PRICE = { model: 'priced-model', input: 1_000_000, output: 1_000_000, cacheRead: null, cacheWrite: null };

describe('e2e: quota under concurrency', () => {
  let e2e: E2eRelayWithSim;
  // What the relay reserves for `body` (1 micro-USD a token): its prompt as counted and max_tokens.
  let reservation: number;

  beforeEach(async () => {
    e2e = await startRelayWithSim({ models: ['priced-model'] });
    // 1 micro-USD per prompt token and per completion token: costs equal token counts.
    await e2e.relay.storage.prices.replace([PRICE]);
    e2e.relay.services.prices.invalidate();
    reservation = await reservationOf(e2e.relay, body, { price: PRICE });
  });
  afterEach(() => e2e.close());

  const body: ChatCompletionRequest = { model: 'priced-model', max_tokens: 40, messages: [{ role: 'user', content: 'count these few words' }] };

  it('50 parallel requests against a quota covering 10 reservations', async () => {
    // One request alone, to learn its exact cost.
    const probe = await e2e.postChat(body);
    expect(probe.status).toBe(200);
    const [probeRow] = await e2e.usageRows(1);
    const costPerRequest = probeRow!.cost;
    expect(costPerRequest).toBeGreaterThan(0);
    expect(reservation).toBeGreaterThan(costPerRequest);

    const token = (await e2e.relay.storage.tokens.list({ page: 1, perPage: 10, now: new Date().toISOString() })).rows[0]!;
    const limit = token.quotaUsed + reservation * 10;
    await e2e.relay.storage.tokens.update(token.id, { quotaLimit: limit });

    const responses = await Promise.all(Array.from({ length: 50 }, () => e2e.postChat(body)));
    const statuses = responses.map((response) => response.status);
    const refused = await Promise.all(
      responses.filter((response) => response.status !== 200).map(async (response) => (await response.json()) as { error: { code: string } }),
    );
    await Promise.all(responses.filter((response) => response.status === 200).map((response) => response.text()));

    const rows = await e2e.usageRows(51);
    const after = (await e2e.relay.storage.tokens.get(token.id))!;
    const successes = statuses.filter((status) => status === 200).length;

    // Exactly one log row per request, the probe included.
    expect(rows).toHaveLength(51);
    expect(rows.filter((row) => row.status === 200)).toHaveLength(successes + 1);
    // Every refusal is insufficient_quota. A request is refused only when its reservation does
    // not fit beside those in flight and the costs settled, so at least the 10 that fit at once
    // are admitted (more when some settle early), and the limit is never passed.
    expect(refused.every((error) => error.error.code === 'insufficient_quota')).toBe(true);
    expect(successes).toBeGreaterThanOrEqual(10);
    // Charges match successes: quota_used is exactly the sum of the successful requests' costs.
    expect(after.quotaUsed).toBe(rows.reduce((sum, row) => sum + row.cost, 0));
    expect(after.quotaUsed).toBe(costPerRequest * (successes + 1));
    expect(after.quotaUsed).toBeLessThanOrEqual(limit);
    console.info(
      `quota concurrency: 50 parallel, limit ${limit} µUSD (10 reservations of ${reservation}; cost ${costPerRequest}), ` +
        `${successes} admitted, ${50 - successes} refused, quota_used ${after.quotaUsed}`,
    );
  });

  it('one request at a time is admitted while one reservation fits, then refused with insufficient_quota', async () => {
    const token = (await e2e.relay.storage.tokens.list({ page: 1, perPage: 10, now: new Date().toISOString() })).rows[0]!;
    const probe = await e2e.postChat(body);
    await probe.text();
    const [probeRow] = await e2e.usageRows(1);
    const cost = probeRow!.cost;
    // Room for one reservation after three real costs: the fourth request still fits, the fifth not.
    await e2e.relay.storage.tokens.update(token.id, { quotaLimit: cost * 3 + reservation, quotaUsed: 0 });

    const statuses: number[] = [];
    let refusal = '';
    for (let i = 0; i < 6; i++) {
      const response = await e2e.postChat(body);
      statuses.push(response.status);
      if (response.status === 429) refusal = ((await response.json()) as { error: { message: string } }).error.message;
      else await response.text();
      await e2e.relay.services.recorder.flush();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect((await e2e.relay.storage.tokens.get(token.id))?.quotaUsed).toBe(cost * 4);
    expect(refusal).toMatch(/^Not enough quota left on this API key for this request\. This request reserves 0\.\d{6} USD/);
  });
});
