import { chat, countBy, errorOf, openReservations, quotaOf, spread, usageRowsOf } from './relay-calls';
import { describeTwoInstances, MICRO_USD_PER_COMPLETION_TOKEN, useTwoInstances } from './two-instances';

/** Each request: max_tokens 5, prompts free → reserves and costs exactly 5,000 micro-USD. */
const MAX_TOKENS = 5;
const RESERVATION = MAX_TOKENS * MICRO_USD_PER_COMPLETION_TOKEN;
/** Enough for 20 requests. */
const LIMIT = 20 * RESERVATION;
const REQUESTS = 100;

describeTwoInstances('two relays, one quota — LiteLLM: "budgets are per pod"', () => {
  const cluster = useTwoInstances();

  it(`${REQUESTS} concurrent requests over A and B against a quota for 20: at most the limit is spent, one row per request, quota_used = Σ costs`, async () => {
    const { relay, db, createToken } = cluster();
    // Each instance answers one limited request first, on a token of its own: its first reservation
    // loads the price table and the tokenizer, which a cold instance would still be doing while
    // the other one took the whole quota (both must be seen to share it).
    const warm = await createToken({ quota_limit: 1_000 * RESERVATION });
    for (const target of [relay('a'), relay('b')]) expect((await chat(target, warm.key, { maxTokens: MAX_TOKENS })).status).toBe(200);
    const token = await createToken({ quota_limit: LIMIT });
    // 20 ms a token: each admitted request holds its reservation ~100 ms, so they overlap.
    const outcomes = await spread([relay('a'), relay('b')], REQUESTS, (target) => chat(target, token.key, { maxTokens: MAX_TOKENS, latencyMsPerToken: 20 }));

    const admitted = outcomes.filter((outcome) => outcome.status === 200);
    const refused = outcomes.filter((outcome) => outcome.status !== 200);
    // Every refusal is OpenAI's insufficient_quota, whichever instance gave it.
    for (const outcome of refused) {
      expect({ status: outcome.status, error: errorOf(outcome) }).toEqual({
        status: 429,
        error: { message: expect.any(String), type: 'insufficient_quota', param: null, code: 'insufficient_quota' },
      });
    }

    const ids = outcomes.map((outcome) => outcome.requestId);
    const rows = await usageRowsOf(db, ids);
    // Exactly one row per request, refused ones included.
    const perRequest = countBy(rows.map((row) => row.request_id));
    expect(ids.filter((id) => perRequest.get(id) !== 1)).toEqual([]);
    expect(rows).toHaveLength(REQUESTS);

    const charged = rows.filter((row) => row.cost > 0);
    const admittedIds = new Set(admitted.map((outcome) => outcome.requestId));
    expect(charged.map((row) => row.request_id).sort()).toEqual([...admittedIds].sort());
    // Each charge is exactly its reservation: the price table makes it so.
    expect(new Set(charged.map((row) => row.cost))).toEqual(new Set([RESERVATION]));

    expect(await openReservations(db, token.id)).toEqual([]);
    const { quotaUsed } = await quotaOf(db, token.id);
    const sumOfCosts = rows.reduce((sum, row) => sum + row.cost, 0);
    const byInstance = countBy(admitted.map((outcome) => (outcome.url === relay('a').url ? 'A' : 'B')));
    console.info(
      `two-instance quota: limit ${LIMIT} µUSD (20 × ${RESERVATION}); ${REQUESTS} concurrent over A and B → ${admitted.length} admitted ` +
        `(A ${byInstance.get('A') ?? 0}, B ${byInstance.get('B') ?? 0}), ${refused.length} refused 429 insufficient_quota; ` +
        `quota_used ${quotaUsed} µUSD = Σ row costs ${sumOfCosts}; bound limit + 2 reservations = ${LIMIT + 2 * RESERVATION}`,
    );
    expect(quotaUsed).toBe(sumOfCosts);
    // The bound is limit + 2 reservations; the atomic reservation in PostgreSQL gives the
    // limit itself. A quota per instance would have let ~40 through (20 on each).
    expect(quotaUsed).toBeLessThanOrEqual(LIMIT + 2 * RESERVATION);
    expect(quotaUsed).toBeLessThanOrEqual(LIMIT);
    // And nothing was refused while quota was left: every cost equals its reservation, so exactly 20 fit.
    expect(admitted).toHaveLength(20);
    // Both instances admitted some: the quota really was shared, not served by one of them.
    expect(byInstance.get('A') ?? 0).toBeGreaterThan(0);
    expect(byInstance.get('B') ?? 0).toBeGreaterThan(0);
  }, 30_000);
});
