import type { ChatCompletionRequest } from '@chat-relay/contract';
import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';
import { reservationOf } from './reservation-of';

/** 1 micro-USD a token: costs are token counts. */
const PRICE = { model: 'house-long', input: 1_000_000, output: 1_000_000, cacheRead: null, cacheWrite: null };
const CAP = 16;
const MAX_TOKENS = 200;

/**
 * Issue 28 defect 6: the reservation counts at most RELAY_QUOTA_OUTPUT_RESERVATION_TOKENS of a
 * request's output, so a token is not locked out by a large max_tokens — and the worst case is an
 * overspend, stated in the README: (min(max_tokens, the model's output limit) − cap) × output price
 * per request admitted while others are in flight. Here every request writes its whole max_tokens.
 */
describe('e2e: the output reservation cap overspends at most what README states', () => {
  let e2e: E2eRelayWithSim;
  let reservation: number;
  // The simulator echoes the user: 300 words ask for an answer longer than max_tokens.
  const body: ChatCompletionRequest & { x_sim: unknown } = {
    model: 'house-long',
    max_tokens: MAX_TOKENS,
    messages: [{ role: 'user', content: 'word '.repeat(300).trim() }],
    x_sim: { latency_ms_per_token: 3 },
  };

  beforeEach(async () => {
    e2e = await startRelayWithSim({ models: ['house-long'] }, { env: { RELAY_QUOTA_OUTPUT_RESERVATION_TOKENS: String(CAP) } });
    await e2e.relay.storage.prices.replace([PRICE]);
    e2e.relay.services.prices.invalidate();
    reservation = await reservationOf(e2e.relay, body, { price: PRICE, env: { RELAY_QUOTA_OUTPUT_RESERVATION_TOKENS: String(CAP) } });
  });
  afterEach(() => e2e.close());

  it('30 concurrent requests on a quota of 10 reservations: each costs at most its reservation plus (max_tokens − cap) × output', async () => {
    const perRequest = (MAX_TOKENS - CAP) * 1;
    const limit = reservation * 10;
    await e2e.relay.storage.tokens.update(e2e.tokenId, { quotaLimit: limit, quotaUsed: 0 });

    const responses = await Promise.all(Array.from({ length: 30 }, () => e2e.postChat(body)));
    const statuses = responses.map((response) => response.status);
    await Promise.all(responses.map((response) => response.text()));
    const rows = await e2e.usageRows(30);
    const used = (await e2e.relay.storage.tokens.get(e2e.tokenId))!.quotaUsed;
    const admitted = rows.filter((row) => row.status === 200);

    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(admitted.length).toBeGreaterThanOrEqual(10);
    // Each wrote its whole max_tokens, more than the cap reserved: the overspend is real…
    for (const row of admitted) {
      expect(row.completionTokens).toBe(MAX_TOKENS);
      expect(row.cost).toBeGreaterThan(reservation);
      // …and never more than the stated bound per request.
      expect(row.cost - reservation).toBeLessThanOrEqual(perRequest);
    }
    expect(used).toBe(rows.reduce((sum, row) => sum + row.cost, 0));
    expect(used).toBeGreaterThan(limit);
    expect(used - limit).toBeLessThanOrEqual(admitted.length * perRequest);
    console.info(
      `output cap ${CAP}, max_tokens ${MAX_TOKENS}: reservation ${reservation} µUSD, real cost ${Math.max(...admitted.map((row) => row.cost))}, ` +
        `limit ${limit}, ${admitted.length} of 30 admitted, quota_used ${used} (overspend ${used - limit} ≤ ${admitted.length} × ${perRequest})`,
    );
  }, 30_000);
});
