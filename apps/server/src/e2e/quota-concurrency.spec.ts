import { startRelayWithSim, type E2eRelayWithSim } from './e2e-relay';

/**
 * SPEC §8 and the token-policy issue: N concurrent requests can never push quota_used past
 * quota_limit by more than one request's reservation; successes match charges; one log row each.
 */
describe('e2e: quota under concurrency', () => {
  let e2e: E2eRelayWithSim;

  beforeEach(async () => {
    e2e = await startRelayWithSim({ models: ['priced-model'] });
    // 1 micro-USD per prompt token and per completion token: costs equal token counts.
    await e2e.relay.storage.prices.replace([{ model: 'priced-model', input: 1_000_000, output: 1_000_000 }]);
    e2e.relay.services.prices.invalidate();
  });
  afterEach(() => e2e.close());

  const body = { model: 'priced-model', max_tokens: 40, messages: [{ role: 'user', content: 'count these few words' }] };

  it('50 parallel requests against a quota covering about 10', async () => {
    // One request alone, to learn its exact cost and reservation.
    const probe = await e2e.postChat(body);
    expect(probe.status).toBe(200);
    const [probeRow] = await e2e.usageRows(1);
    const costPerRequest = probeRow!.cost;
    expect(costPerRequest).toBeGreaterThan(0);

    const token = (await e2e.relay.storage.tokens.list({ page: 1, perPage: 10, now: new Date().toISOString() })).rows[0]!;
    const limit = token.quotaUsed + costPerRequest * 10;
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
    const reservation = Math.max(...rows.slice(1).map((row) => row.cost), 0) + 40 + Math.ceil(JSON.stringify(body).length / 4);

    // Exactly one log row per request, the probe included.
    expect(rows).toHaveLength(51);
    expect(rows.filter((row) => row.status === 200)).toHaveLength(successes + 1);
    // Every refusal is insufficient_quota; some were admitted and some refused. Reservations
    // are upper estimates (max_tokens, body size) settled when the log is written, so a burst
    // admits fewer than the quota would cover — never more.
    expect(refused.every((error) => error.error.code === 'insufficient_quota')).toBe(true);
    expect(successes).toBeGreaterThan(0);
    expect(successes).toBeLessThanOrEqual(11);
    // Charges match successes: quota_used is exactly the sum of the successful requests' costs.
    expect(after.quotaUsed).toBe(rows.reduce((sum, row) => sum + row.cost, 0));
    expect(after.quotaUsed).toBe(costPerRequest * (successes + 1));
    // Never past the limit by more than one reservation.
    expect(after.quotaUsed).toBeLessThanOrEqual(limit + reservation);
    console.info(
      `quota concurrency: 50 parallel, limit ${limit} µUSD (≈10 requests of ${costPerRequest}), ` +
        `${successes} admitted, ${50 - successes} refused, quota_used ${after.quotaUsed} (overshoot ${after.quotaUsed - limit}, one reservation ≤ ${reservation})`,
    );
  });

  it('one request at a time uses the quota exactly, then refuses with insufficient_quota', async () => {
    const token = (await e2e.relay.storage.tokens.list({ page: 1, perPage: 10, now: new Date().toISOString() })).rows[0]!;
    const probe = await e2e.postChat(body);
    await probe.text();
    const [probeRow] = await e2e.usageRows(1);
    const cost = probeRow!.cost;
    await e2e.relay.storage.tokens.update(token.id, { quotaLimit: cost * 4, quotaUsed: 0 });

    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await e2e.postChat(body);
      statuses.push(response.status);
      await response.text();
      await e2e.relay.services.recorder.flush();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect((await e2e.relay.storage.tokens.get(token.id))?.quotaUsed).toBe(cost * 4);
    const shown = await fetch(`${e2e.url}/api/tokens/${token.id}`, { headers: { authorization: `Bearer ${e2e.relay.adminKey}` } });
    expect(((await shown.json()) as { status: string }).status).toBe('exhausted');
  });
});
